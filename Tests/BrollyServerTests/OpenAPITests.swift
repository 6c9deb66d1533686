import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyServer

/// The OpenAPI document (a resource file, its problem codes from `ProblemCode`) against the server.
@Suite struct OpenAPITests {
    /// `METHOD /path` for each route of the API's router, `:id` written `{id}` as OpenAPI does.
    func routes() -> Set<String> {
        let parts = ServerParts(
            useCases: makeServerUseCases(StubProvider(.success(report()))), settings: testSettings(), metrics: ServerMetrics())
        let router = makeRouter(parts, api: true, site: false)
        return Set(
            router.routes.map { route in
                let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                return route.method.rawValue + " /" + path.joined(separator: "/")
            })
    }

    @Test func theDocumentDescribesExactlyTheAPIsRoutes() throws {
        let document = try OpenAPIDocument.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(
            paths.filter { entry in ["/api/v1/", "/forecast/", "/v1/", "/data/2.5/", "/data/3.0/"].contains { entry.key.hasPrefix($0) } }
                .flatMap {
                    path, operations in
                    operations.keys.filter { ["get", "put", "post", "delete", "patch", "head", "options"].contains($0) }
                        .map { $0.uppercased() + " " + path }
                })
        let served = routes()
        #expect(served.subtracting(documented).isEmpty, "routes missing from openapi.json: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
    }

    @Test func everyProblemCodeIsDocumentedAndOnlyThose() throws {
        let data = Data(OpenAPIDocument.json.utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let problem = try #require(schemas["Problem"] as? [String: Any])
        let properties = try #require(problem["properties"] as? [String: Any])
        let code = try #require(properties["code"] as? [String: Any])
        #expect(code["enum"] as? [String] == ProblemCode.allCases.map(\.rawValue))
        #expect(ProblemCode.allCases.map(\.rawValue).contains("store-unavailable"))
    }

    @Test func problemsCarryTheirCodeAndType() throws {
        let problem = Problem(.tooManyRequests, code: .tooManyRequests, title: "Too many requests", detail: "slow down", retryAfter: 3)
        #expect(problem.code.rawValue == "too-many-requests")
        #expect(Problem(BrollyError(.clientLimited, "x")).code == .tooManyRequests)
        #expect(Problem(BrollyError(.offline, "x")).code == .offline)
    }
}
