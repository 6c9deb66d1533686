import Foundation

/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/openapi.json`: the resource file
/// `openapi.json`, with the problem codes filled in from `ProblemCode` (the one list). The server
/// tests check that it describes exactly the router's routes, and the end-to-end tests that every
/// documented path answers as documented.
enum OpenAPIDocument {
    /// The document as served.
    static let json: String = {
        guard let document = try? document(), let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        else { return #"{"openapi": "3.1.0", "info": {"title": "Brolly API", "version": "1.0.0"}, "paths": {}}"# }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The resource file, parsed, with `Problem.code`'s enum set to every `ProblemCode`.
    static func document() throws -> [String: Any] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        guard var document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
            var components = document["components"] as? [String: Any], var schemas = components["schemas"] as? [String: Any],
            var problem = schemas["Problem"] as? [String: Any], var properties = problem["properties"] as? [String: Any],
            var code = properties["code"] as? [String: Any]
        else { throw CocoaError(.fileReadCorruptFile) }
        code["enum"] = ProblemCode.allCases.map(\.rawValue)
        properties["code"] = code
        problem["properties"] = properties
        schemas["Problem"] = problem
        components["schemas"] = schemas
        document["components"] = components
        return document
    }
}
