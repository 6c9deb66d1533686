/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/openapi.json`. The server tests
/// check that every documented path answers as documented.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Brolly API",
            "version": "1.0.0",
            "description": "Current weather, a 7-day forecast by local day, place search, and each browser's own saved places and history (identified by an HttpOnly cookie), street addresses and today's news. Values are metric unless units says otherwise. Errors are RFC 9457 problem documents."
          },
          "paths": {
            "/api/v1/weather/now": {
              "get": {
                "operationId": "getWeatherNow",
                "summary": "What a widget shows: temperature, feels-like, condition, clouds, today's range, the most severe alert, freshness",
                "parameters": [
                  { "name": "lat", "in": "query", "schema": { "type": "number", "minimum": -90, "maximum": 90 } },
                  { "name": "lon", "in": "query", "schema": { "type": "number", "minimum": -180, "maximum": 180 } },
                  { "name": "place", "in": "query", "schema": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$" } },
                  { "name": "units", "in": "query", "schema": { "enum": ["metric", "imperial", "standard"] } }
                ],
                "responses": {
                  "200": { "description": "The small weather document", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Now" } } } },
                  "304": { "description": "Not modified (If-None-Match)" },
                  "400": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" },
                  "502": { "$ref": "#/components/responses/Problem" }, "503": { "$ref": "#/components/responses/Problem" }, "504": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/weather": {
              "get": {
                "operationId": "getWeather",
                "summary": "Weather for coordinates or a place name",
                "parameters": [
                  { "name": "lat", "in": "query", "schema": { "type": "number", "minimum": -90, "maximum": 90 }, "description": "Latitude; with lon. Not with place." },
                  { "name": "lon", "in": "query", "schema": { "type": "number", "minimum": -180, "maximum": 180 }, "description": "Longitude; with lat." },
                  { "name": "place", "in": "query", "schema": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$" }, "description": "A place name; the best match is used." },
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
                "parameters": [ { "name": "q", "in": "query", "required": true, "schema": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$" } } ],
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
            "/api/v1/places": {
              "get": {
                "operationId": "listPlaces", "summary": "This device's saved places, in order (the first is the default)",
                "responses": { "200": { "description": "Saved places", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/SavedPlace" } } } } } }
              },
              "post": {
                "operationId": "addPlace", "summary": "Save a place: by search query, or by coordinates with an optional name",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/NewPlace" } } } },
                "responses": {
                  "201": { "description": "Saved", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SavedPlace" } } } },
                  "200": { "description": "Already saved (within about 100 m): the existing place, never a copy", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SavedPlace" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" }, "502": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/places/order": {
              "put": {
                "operationId": "reorderPlaces", "summary": "Put the saved places in a new order",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["ids"], "properties": { "ids": { "type": "array", "items": { "type": "integer" } } } } } } },
                "responses": {
                  "200": { "description": "The places in their new order", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/SavedPlace" } } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/places/{id}": {
              "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
              "patch": {
                "operationId": "updatePlace", "summary": "Rename (customName, null clears) or move (position, from 0) a saved place",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "anyOf": [ { "required": ["customName"] }, { "required": ["position"] } ], "properties": { "customName": { "type": ["string", "null"], "maxLength": 100, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$" }, "position": { "type": "integer", "minimum": 0 } } } } } },
                "responses": {
                  "200": { "description": "The place", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SavedPlace" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" }
                }
              },
              "delete": {
                "operationId": "removePlace", "summary": "Remove a saved place",
                "responses": { "204": { "description": "Removed" }, "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" } }
              }
            },
            "/api/v1/history": {
              "get": {
                "operationId": "listHistory", "summary": "This device's lookups, newest first",
                "parameters": [ { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 } } ],
                "responses": {
                  "200": { "description": "Lookups", "content": { "application/json": { "schema": { "type": "object", "required": ["items"], "properties": { "items": { "type": "array", "items": { "$ref": "#/components/schemas/HistoryEntry" } } } } } } },
                  "400": { "$ref": "#/components/responses/Problem" }
                }
              },
              "delete": {
                "operationId": "clearHistory", "summary": "Delete every lookup of this device",
                "responses": { "204": { "description": "Deleted" }, "403": { "$ref": "#/components/responses/Problem" } }
              }
            },
            "/api/v1/history/{id}": {
              "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
              "get": {
                "operationId": "historyEntry", "summary": "One lookup with its weather snapshot",
                "responses": {
                  "200": { "description": "The lookup", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/HistoryEntry" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" }
                }
              },
              "delete": {
                "operationId": "deleteHistoryEntry", "summary": "Delete one lookup",
                "responses": { "204": { "description": "Deleted" }, "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" } }
              }
            },
            "/api/v1/address": {
              "get": {
                "operationId": "address", "summary": "The street address at coordinates",
                "parameters": [
                  { "name": "lat", "in": "query", "required": true, "schema": { "type": "number", "minimum": -90, "maximum": 90 } },
                  { "name": "lon", "in": "query", "required": true, "schema": { "type": "number", "minimum": -180, "maximum": 180 } }
                ],
                "responses": {
                  "200": { "description": "The address", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Address" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" },
                  "502": { "$ref": "#/components/responses/Problem" }, "503": { "$ref": "#/components/responses/Problem" }, "504": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/alerts": {
              "get": {
                "operationId": "alerts", "summary": "Official weather warnings for a place (NWS, MeteoAlarm, OpenWeatherMap One Call, CAP feeds), most severe first",
                "parameters": [
                  { "name": "lat", "in": "query", "required": false, "schema": { "type": "number", "minimum": -90, "maximum": 90 } },
                  { "name": "lon", "in": "query", "required": false, "schema": { "type": "number", "minimum": -180, "maximum": 180 } },
                  { "name": "place", "in": "query", "required": false, "schema": { "type": "string", "minLength": 1, "maxLength": 200 } },
                  { "name": "lang", "in": "query", "required": false, "description": "The warnings' language where the source has several (else Accept-Language, else English)", "schema": { "type": "string", "pattern": "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$" } }
                ],
                "responses": {
                  "200": { "description": "The warnings; a source that failed is listed in failedSources", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Alerts" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" },
                  "502": { "$ref": "#/components/responses/Problem" }, "503": { "$ref": "#/components/responses/Problem" }, "504": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/push/key": {
              "get": {
                "operationId": "pushKey", "summary": "The server's VAPID public key (applicationServerKey)",
                "responses": {
                  "200": { "description": "The key", "content": { "application/json": { "schema": { "type": "object", "required": ["publicKey"], "properties": { "publicKey": { "type": "string" } } } } } },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/push/subscriptions": {
              "get": {
                "operationId": "pushSubscriptions", "summary": "This device's push subscriptions",
                "responses": { "200": { "description": "The subscriptions", "content": { "application/json": { "schema": { "type": "object", "required": ["items"], "properties": { "items": { "type": "array", "items": { "$ref": "#/components/schemas/PushSubscription" } } } } } } } }
              },
              "post": {
                "operationId": "subscribe", "summary": "Subscribe this device to warnings for its saved places (a browser's PushSubscription.toJSON())",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["endpoint", "keys"],
                  "properties": { "endpoint": { "type": "string", "format": "uri", "description": "https; never a loopback or private address" },
                    "expirationTime": { "type": ["number", "null"] },
                    "keys": { "type": "object", "required": ["p256dh", "auth"], "properties": { "p256dh": { "type": "string" }, "auth": { "type": "string" } } },
                    "minimumSeverity": { "enum": ["extreme", "severe", "moderate", "minor"], "default": "moderate" } } } } } },
                "responses": {
                  "201": { "description": "Subscribed (the same endpoint again updates it)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PushSubscription" } } } },
                  "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }, "413": { "$ref": "#/components/responses/Problem" },
                  "415": { "$ref": "#/components/responses/Problem" }, "429": { "$ref": "#/components/responses/Problem" }, "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/api/v1/push/subscriptions/{id}": {
              "delete": {
                "operationId": "unsubscribe", "summary": "Remove one of this device's subscriptions",
                "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } } ],
                "responses": { "204": { "description": "Removed" }, "400": { "$ref": "#/components/responses/Problem" }, "403": { "$ref": "#/components/responses/Problem" }, "404": { "$ref": "#/components/responses/Problem" } }
              }
            },
            "/api/v1/news": {
              "get": {
                "operationId": "news", "summary": "Up to 10 news items published today in the place's time zone",
                "parameters": [
                  { "name": "lat", "in": "query", "required": true, "schema": { "type": "number", "minimum": -90, "maximum": 90 } },
                  { "name": "lon", "in": "query", "required": true, "schema": { "type": "number", "minimum": -180, "maximum": 180 } }
                ],
                "responses": {
                  "200": { "description": "Today's items", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/News" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "502": { "$ref": "#/components/responses/Problem" }, "503": { "$ref": "#/components/responses/Problem" }, "504": { "$ref": "#/components/responses/Problem" }
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
              "Now": {
                "type": "object", "required": ["place", "temperature", "feelsLike", "temperatureMin", "temperatureMax", "clouds", "condition", "alert", "units", "fetchedAt", "stale"],
                "properties": {
                  "place": { "type": "string" }, "temperature": { "type": "number" }, "feelsLike": { "type": ["number", "null"] },
                  "temperatureMin": { "type": "number" }, "temperatureMax": { "type": "number" }, "clouds": { "type": ["number", "null"] },
                  "condition": { "$ref": "#/components/schemas/Condition" }, "alert": { "type": ["string", "null"] },
                  "units": { "enum": ["°C", "°F", "K"] }, "fetchedAt": { "type": "string", "format": "date-time" }, "stale": { "type": "boolean" }
                }
              },
              "SavedPlace": {
                "type": "object", "required": ["id", "name", "displayName", "country", "latitude", "longitude", "position"],
                "properties": {
                  "id": { "type": "integer" }, "name": { "type": "string" }, "customName": { "type": ["string", "null"] },
                  "displayName": { "type": "string" }, "region": { "type": ["string", "null"] }, "country": { "type": "string" },
                  "countryCode": { "type": ["string", "null"] }, "latitude": { "type": "number" }, "longitude": { "type": "number" },
                  "timezone": { "type": ["string", "null"] }, "position": { "type": "integer", "minimum": 0 }
                }
              },
              "NewPlace": {
                "type": "object",
                "anyOf": [ { "required": ["query"] }, { "required": ["latitude", "longitude"] } ],
                "properties": {
                  "query": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$" },
                  "latitude": { "type": "number", "minimum": -90, "maximum": 90 }, "longitude": { "type": "number", "minimum": -180, "maximum": 180 },
                  "name": { "type": "string", "maxLength": 100, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$" }, "customName": { "type": ["string", "null"], "maxLength": 100, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$" },
                  "region": { "type": ["string", "null"] }, "country": { "type": ["string", "null"] }, "countryCode": { "type": ["string", "null"] },
                  "timezone": { "type": ["string", "null"] }
                }
              },
              "Address": {
                "type": "object", "required": ["latitude", "longitude", "display"],
                "properties": {
                  "latitude": { "type": "number" }, "longitude": { "type": "number" }, "street": { "type": ["string", "null"] },
                  "houseNumber": { "type": ["string", "null"] }, "city": { "type": ["string", "null"] }, "region": { "type": ["string", "null"] },
                  "country": { "type": ["string", "null"] }, "countryCode": { "type": ["string", "null"] }, "display": { "type": "string" }
                }
              },
              "HistoryEntry": {
                "type": "object", "required": ["id", "createdAt", "latitude", "longitude", "placeName", "temperature", "condition"],
                "properties": {
                  "id": { "type": "integer" }, "createdAt": { "type": "string", "format": "date-time" },
                  "latitude": { "type": "number" }, "longitude": { "type": "number" }, "placeName": { "type": "string" },
                  "address": { "oneOf": [ { "$ref": "#/components/schemas/Address" }, { "type": "null" } ] },
                  "temperature": { "type": "number", "description": "°C" }, "condition": { "$ref": "#/components/schemas/Condition" },
                  "weather": { "$ref": "#/components/schemas/Weather" }
                }
              },
              "News": {
                "type": "object", "required": ["items"],
                "properties": {
                  "place": { "type": "string" },
                  "items": { "type": "array", "maxItems": 10, "items": { "type": "object", "required": ["title", "summary", "publishedAt", "url", "source"],
                    "properties": { "title": { "type": "string" }, "summary": { "type": "string" }, "publishedAt": { "type": "string", "format": "date-time" },
                      "url": { "type": "string" }, "source": { "type": "string" } } } }
                }
              },
              "Problem": {
                "type": "object",
                "required": ["type", "title", "status", "detail", "code"],
                "properties": {
                  "type": { "type": "string" }, "title": { "type": "string" }, "status": { "type": "integer" }, "detail": { "type": "string" },
                  "code": { "type": "string", "enum": ["invalid-input", "not-found", "timeout", "offline", "rate-limited", "unreadable", "provider", "no-route", "cross-origin", "internal"] },
                  "retryAfter": { "type": "integer" }
                }
              },
              "Alert": {
                "type": "object", "required": ["id", "source", "sender", "event", "severity", "urgency", "certainty", "headline", "description", "areas"],
                "properties": { "id": { "type": "string" }, "source": { "enum": ["nws", "meteoalarm", "openweathermap", "cap"] }, "sender": { "type": "string" },
                  "event": { "type": "string" }, "severity": { "enum": ["extreme", "severe", "moderate", "minor", "unknown"] },
                  "urgency": { "type": "string" }, "certainty": { "type": "string" }, "headline": { "type": "string" }, "description": { "type": "string" },
                  "instruction": { "type": "string" }, "onset": { "type": "string", "format": "date-time" }, "expires": { "type": "string", "format": "date-time" },
                  "areas": { "type": "array", "items": { "type": "string" } }, "url": { "type": "string" } }
              },
              "AlertsElsewhere": {
                "type": "object", "required": ["country", "alerts"], "description": "Warnings in the place's country that could not be matched to it; never shown as here",
                "properties": { "country": { "type": "string" }, "alerts": { "type": "array", "items": { "$ref": "#/components/schemas/Alert" } } }
              },
              "Alerts": {
                "type": "object", "required": ["place", "alerts", "sources", "failedSources"],
                "properties": { "place": { "type": "object" }, "alerts": { "type": "array", "items": { "$ref": "#/components/schemas/Alert" } },
                  "elsewhere": { "$ref": "#/components/schemas/AlertsElsewhere" },
                  "sources": { "type": "array", "items": { "type": "string" } }, "failedSources": { "type": "array", "items": { "type": "string" } } }
              },
              "PushSubscription": {
                "type": "object", "required": ["id", "endpoint", "minimumSeverity", "createdAt"],
                "properties": { "id": { "type": "string" }, "endpoint": { "type": "string" }, "minimumSeverity": { "enum": ["extreme", "severe", "moderate", "minor"] }, "createdAt": { "type": "string", "format": "date-time" } }
              },
              "ScaleValue": {
                "type": "object", "description": "A value on a published scale: the European AQI (EEA), the US AQI (EPA) or the UV index (WHO), with the category's name and the scale's colour",
                "required": ["value", "category", "colour"],
                "properties": { "value": { "type": "number" }, "category": { "type": "string", "examples": ["Fair", "Unhealthy for sensitive groups", "Very high"] }, "colour": { "type": "string", "pattern": "^#[0-9a-f]{6}$" } }
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
                      "sunrise": { "type": ["string", "null"] }, "sunset": { "type": ["string", "null"] },
                      "temperatureYesterday": { "type": ["number", "null"], "description": "The temperature at this hour yesterday (Open-Meteo only; absent rather than guessed)" }
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
                    "properties": { "provider": { "enum": ["open-meteo", "openweathermap"], "description": "Who answered" }, "fetchedAt": { "type": "string", "format": "date-time" }, "stale": { "type": "boolean" },
                      "fallbackFrom": { "enum": ["open-meteo", "openweathermap"], "description": "Present when the configured provider failed (time-out, 5xx, 429, budget spent, circuit open) and the other one answered (automatic failover; needs OPENWEATHERMAP_API_KEY)" },
                      "lacking": { "type": "array", "items": { "enum": ["name", "airQuality", "alerts"] }, "description": "What this answer lacks because a helper failed, is slow or was left alone after a failure (the place's name: the coordinates stand in; air quality; some or all warning sources). Ask again in a few seconds to have it when it arrives; absent when nothing is lacking." } } },
                  "alerts": { "type": "array", "description": "Official warnings covering the place, most severe first; absent when they could not be had in time", "items": { "$ref": "#/components/schemas/Alert" } },
                  "alertsElsewhere": { "$ref": "#/components/schemas/AlertsElsewhere" },
                  "nowcast": { "type": "object", "description": "The next two hours' precipitation in 15-minute slots (Open-Meteo's minutely_15, from the same forecast call); absent for OpenWeatherMap.",
                    "required": ["slots"],
                    "properties": { "summary": { "type": "string", "description": "e.g. 'Rain starting in about 30 min, for about 45 min', 'Rain stopping in about 15 min'; absent when it stays dry", "examples": ["Rain starting in about 30 min, for about 45 min"] },
                      "slots": { "type": "array", "maxItems": 8, "items": { "type": "object", "required": ["start", "end", "precipitation"],
                        "properties": { "start": { "type": "string", "format": "date-time" }, "end": { "type": "string", "format": "date-time" }, "precipitation": { "type": "number", "minimum": 0, "description": "In the slot, in units.precipitation" } } } } } },
                  "airQuality": { "type": "object", "description": "Air quality, UV and pollen from Open-Meteo's air-quality API (CAMS), refreshed hourly; absent when unavailable (never an error that hides the weather). Concentrations in μg/m³, pollen in grains/m³.",
                    "required": ["time", "fetchedAt", "stale"],
                    "properties": { "time": { "type": "string", "format": "date-time" }, "fetchedAt": { "type": "string", "format": "date-time" }, "stale": { "type": "boolean" },
                      "europeanAqi": { "$ref": "#/components/schemas/ScaleValue" }, "usAqi": { "$ref": "#/components/schemas/ScaleValue" },
                      "pm2_5": { "type": "number" }, "pm10": { "type": "number" }, "ozone": { "type": "number" }, "nitrogenDioxide": { "type": "number" },
                      "uvIndex": { "$ref": "#/components/schemas/ScaleValue" }, "uvIndexMax": { "$ref": "#/components/schemas/ScaleValue" },
                      "pollen": { "type": "object", "description": "Only where the European pollen model covers the place; absent elsewhere (not zero)",
                        "properties": { "alder": { "type": "number" }, "birch": { "type": "number" }, "grass": { "type": "number" }, "mugwort": { "type": "number" }, "olive": { "type": "number" }, "ragweed": { "type": "number" } } } } },
                  "sky": { "type": "object", "description": "The day of the sun and the moon at the place: sunrise and sunset from the provider (computed when it has none); civil dawn and dusk, solar noon and the moon computed locally. Times null where the sun does not cross (polar day or night).",
                    "required": ["solarNoon", "moon"],
                    "properties": { "dawn": { "type": ["string", "null"], "format": "date-time" }, "sunrise": { "type": ["string", "null"], "format": "date-time" },
                      "solarNoon": { "type": "string", "format": "date-time" }, "sunset": { "type": ["string", "null"], "format": "date-time" },
                      "dusk": { "type": ["string", "null"], "format": "date-time" },
                      "moon": { "type": "object", "required": ["phase", "symbol", "illumination", "age"],
                        "properties": { "phase": { "enum": ["new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous", "last quarter", "waning crescent"] },
                          "symbol": { "type": "string" }, "illumination": { "type": "number", "minimum": 0, "maximum": 1 }, "age": { "type": "number", "minimum": 0 } } } } }
                }
              }
            }
          }
        }
        """#
}
