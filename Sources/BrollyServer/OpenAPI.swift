/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/openapi.json`. The server tests
/// check that every documented path answers as documented.
enum OpenAPIDocument {
    static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Brolly API",
        "version": "1.0.0",
        "description": "Current weather, a 7-day forecast by local day and place search. Values are metric unless units says otherwise. Errors are RFC 9457 problem documents."
      },
      "paths": {
        "/api/v1/weather": {
          "get": {
            "operationId": "getWeather",
            "summary": "Weather for coordinates or a place name",
            "parameters": [
              { "name": "lat", "in": "query", "schema": { "type": "number", "minimum": -90, "maximum": 90 }, "description": "Latitude; with lon. Not with place." },
              { "name": "lon", "in": "query", "schema": { "type": "number", "minimum": -180, "maximum": 180 }, "description": "Longitude; with lat." },
              { "name": "place", "in": "query", "schema": { "type": "string", "minLength": 1, "maxLength": 200 }, "description": "A place name; the best match is used." },
              { "name": "units", "in": "query", "schema": { "type": "string", "enum": ["metric", "imperial", "standard"], "default": "metric" } }
            ],
            "responses": {
              "200": { "description": "The weather", "headers": { "ETag": { "schema": { "type": "string" } }, "Cache-Control": { "schema": { "type": "string" } } }, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Weather" } } } },
              "304": { "description": "Not modified (If-None-Match matched the ETag)" },
              "400": { "$ref": "#/components/responses/Problem" },
              "404": { "$ref": "#/components/responses/Problem" },
              "502": { "$ref": "#/components/responses/Problem" },
              "503": { "$ref": "#/components/responses/Problem" },
              "504": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v1/places/search": {
          "get": {
            "operationId": "searchPlaces",
            "summary": "Places matching a name, best first",
            "parameters": [ { "name": "q", "in": "query", "required": true, "schema": { "type": "string", "minLength": 1, "maxLength": 200 } } ],
            "responses": {
              "200": { "description": "Matching places (possibly none)", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Place" } } } } },
              "304": { "description": "Not modified" },
              "400": { "$ref": "#/components/responses/Problem" },
              "502": { "$ref": "#/components/responses/Problem" },
              "503": { "$ref": "#/components/responses/Problem" },
              "504": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/api/v1/places/reverse": {
          "get": {
            "operationId": "reversePlace",
            "summary": "The nearest named place to coordinates",
            "parameters": [
              { "name": "lat", "in": "query", "required": true, "schema": { "type": "number", "minimum": -90, "maximum": 90 } },
              { "name": "lon", "in": "query", "required": true, "schema": { "type": "number", "minimum": -180, "maximum": 180 } }
            ],
            "responses": {
              "200": { "description": "The place", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Place" } } } },
              "304": { "description": "Not modified" },
              "400": { "$ref": "#/components/responses/Problem" },
              "404": { "$ref": "#/components/responses/Problem" },
              "502": { "$ref": "#/components/responses/Problem" },
              "503": { "$ref": "#/components/responses/Problem" },
              "504": { "$ref": "#/components/responses/Problem" }
            }
          }
        },
        "/healthz": {
          "get": { "operationId": "health", "summary": "Liveness", "responses": { "200": { "description": "ok", "content": { "text/plain": { "schema": { "type": "string" } } } } } }
        }
      },
      "components": {
        "responses": {
          "Problem": { "description": "An RFC 9457 problem", "content": { "application/problem+json": { "schema": { "$ref": "#/components/schemas/Problem" } } } }
        },
        "schemas": {
          "Problem": {
            "type": "object",
            "required": ["type", "title", "status", "detail", "code"],
            "properties": {
              "type": { "type": "string" }, "title": { "type": "string" }, "status": { "type": "integer" }, "detail": { "type": "string" },
              "code": { "type": "string", "enum": ["invalid-input", "not-found", "timeout", "offline", "rate-limited", "unreadable", "provider", "no-route", "internal"] },
              "retryAfter": { "type": "integer" }
            }
          },
          "Condition": {
            "type": "object", "required": ["code", "title", "description", "icon"],
            "properties": { "code": { "type": "integer" }, "title": { "type": "string" }, "description": { "type": "string" }, "icon": { "type": "string" } }
          },
          "Place": {
            "type": "object", "required": ["name", "country", "latitude", "longitude"],
            "properties": {
              "name": { "type": "string" }, "region": { "type": ["string", "null"] }, "country": { "type": "string" },
              "countryCode": { "type": ["string", "null"] }, "latitude": { "type": "number" }, "longitude": { "type": "number" },
              "timezone": { "type": ["string", "null"] }
            }
          },
          "Weather": {
            "type": "object", "required": ["place", "current", "days", "hours", "units", "source"],
            "properties": {
              "place": { "$ref": "#/components/schemas/Place" },
              "current": {
                "type": "object", "required": ["time", "temperature", "temperatureMin", "temperatureMax", "condition"],
                "properties": {
                  "time": { "type": "string", "format": "date-time" }, "temperature": { "type": "number" }, "feelsLike": { "type": ["number", "null"] },
                  "temperatureMin": { "type": "number" }, "temperatureMax": { "type": "number" }, "humidity": { "type": ["number", "null"] },
                  "pressure": { "type": ["number", "null"] }, "windSpeed": { "type": ["number", "null"] }, "windDirection": { "type": ["number", "null"] },
                  "windGust": { "type": ["number", "null"] }, "clouds": { "type": ["number", "null"] }, "visibility": { "type": ["number", "null"] },
                  "rain": { "type": ["number", "null"] }, "snow": { "type": ["number", "null"] }, "condition": { "$ref": "#/components/schemas/Condition" },
                  "sunrise": { "type": ["string", "null"] }, "sunset": { "type": ["string", "null"] }
                }
              },
              "days": { "type": "array", "items": { "type": "object", "required": ["date", "temperatureMin", "temperatureMax", "condition"],
                "properties": { "date": { "type": "string", "format": "date" }, "temperatureMin": { "type": "number" }, "temperatureMax": { "type": "number" },
                  "precipitation": { "type": ["number", "null"] }, "precipitationProbability": { "type": ["number", "null"] }, "condition": { "$ref": "#/components/schemas/Condition" } } } },
              "hours": { "type": "array", "items": { "type": "object", "required": ["time", "temperature", "condition"],
                "properties": { "time": { "type": "string", "format": "date-time" }, "temperature": { "type": "number" },
                  "precipitationProbability": { "type": ["number", "null"] }, "precipitation": { "type": ["number", "null"] }, "condition": { "$ref": "#/components/schemas/Condition" } } } },
              "units": { "type": "object", "required": ["temperature", "windSpeed", "pressure", "precipitation"],
                "properties": { "temperature": { "enum": ["°C", "°F", "K"] }, "windSpeed": { "enum": ["m/s", "km/h", "mph"] }, "pressure": { "const": "hPa" }, "precipitation": { "enum": ["mm", "in"] } } },
              "source": { "type": "object", "required": ["provider", "fetchedAt", "stale"],
                "properties": { "provider": { "enum": ["open-meteo", "openweathermap"] }, "fetchedAt": { "type": "string", "format": "date-time" }, "stale": { "type": "boolean" } } }
            }
          }
        }
      }
    }
    """#
}
