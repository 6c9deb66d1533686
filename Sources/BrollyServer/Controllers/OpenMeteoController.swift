import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /v1/forecast`: Open-Meteo's forecast API. What Brolly's cached weather holds is answered
/// from it (one upstream call per place whichever API asks); any other query is passed to the
/// upstream Open-Meteo once per normalized query (`OpenMeteoPassthrough`). Errors in Open-Meteo's
/// shape: `{"error": true, "reason": …}`.
struct OpenMeteoController: Sendable {
    let documents: WeatherDocuments<EncodedJSON>
    let metrics: ServerMetrics
    let useCases: UseCases
    let answers: CompatibleAnswers

    init(documents: WeatherDocuments<EncodedJSON>, metrics: ServerMetrics, useCases: UseCases) {
        self.documents = documents
        self.metrics = metrics
        self.useCases = useCases
        answers = CompatibleAnswers(useCases: useCases)
    }

    /// Under `/v1`.
    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("forecast", use: forecast)
    }

    @Sendable func forecast(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let remembered = answers.answer(request) {
            metrics.weatherAnswerFromCache()
            return remembered
        }
        let api = CompatibleAPI.openMeteo
        do {
            let query = try OpenMeteoQuery(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
            let model = query.model
            if query.isAnsweredFromCache, model.map(OpenMeteoProvider.knownModels.contains) ?? true {
                let (result, _) = try await documents.weather(
                    for: .coordinate(Coordinate(latitude: query.latitude, longitude: query.longitude)), language: "en", device: "",
                    history: nil, full: false, model: model)
                metrics.weatherAnswer(result)
                return try answers.answer(request, document: OpenMeteoFormat.document(query, result: result), from: result)
            }
            guard let passthrough = useCases.services.openMeteoPassthrough else {
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
