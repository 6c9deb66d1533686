import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /v1/forecast`: Open-Meteo's forecast API. What Brolly's cached weather holds is answered
/// from it (one upstream call per place whichever API asks); any other query is passed to the
/// upstream Open-Meteo once per normalized query (`OpenMeteoPassthrough`). Errors in Open-Meteo's
/// shape: `{"error": true, "reason": …}`.
struct OpenMeteoController: Sendable {
    let answers: CompatibleAnswers

    /// Under `/v1`.
    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("forecast", use: forecast)
    }

    @Sendable func forecast(_ request: Request, context: AppRequestContext) async throws -> Response {
        let api = CompatibleAPI.openMeteo
        do {
            let query = try OpenMeteoQuery(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
            let model = query.model
            if query.isAnsweredFromCache, model.map(OpenMeteoProvider.knownModels.contains) ?? true {
                let (result, _) = try await answers.weather(
                    for: .coordinate(Coordinate(latitude: query.latitude, longitude: query.longitude)), language: "en", full: false,
                    model: model)
                return try answers.answer(request, document: OpenMeteoFormat.document(query, result: result), from: result)
            }
            guard let passthrough = answers.useCases.services.openMeteoPassthrough else {
                return api.error(.badRequest, "This server answers only the variables it keeps")
            }
            let (body, _) = try await passthrough.answer(query)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json; charset=utf-8", .eTag: "\"\(Checksum.hex(body))\"", .cacheControl: "public, no-cache",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        } catch let refusal as OpenMeteoQuery.Refusal {
            return api.error(.badRequest, refusal.reason)
        } catch let error as BrollyError {
            return api.error(error)
        }
    }
}
