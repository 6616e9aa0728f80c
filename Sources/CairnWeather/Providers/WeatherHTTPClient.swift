import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// GETs JSON from a weather service with a time limit, turning every failure into a `WeatherProviderError`.
struct WeatherHTTPClient: Sendable {
    /// Weather services answer in well under a second; a page must never wait long for one.
    static let defaultTimeout: TimeAmount = .seconds(3)
    /// Larger answers are refused: a week of forecast is a few kilobytes.
    static let maxBodyBytes = 2 << 20

    var client: HTTPClient
    var timeout: TimeAmount

    init(client: HTTPClient = .shared, timeout: TimeAmount = WeatherHTTPClient.defaultTimeout) {
        self.client = client
        self.timeout = timeout
    }

    /// The answer to `GET url`, decoded as `T`.
    func get<T: Decodable>(_ type: T.Type, from url: URL) async throws -> T {
        let body = try await getBody(url)
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw WeatherProviderError.malformed(Self.describe(error))
        }
    }

    private func getBody(_ url: URL) async throws -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Cairn (self-hosted outdoor platform)")
        do {
            let response = try await client.execute(request, timeout: timeout)
            guard response.status == .ok else { throw WeatherProviderError.httpStatus(Int(response.status.code)) }
            let buffer = try await response.body.collect(upTo: Self.maxBodyBytes)
            return Data(buffer: buffer)
        } catch let error as WeatherProviderError {
            throw error
        } catch let error as HTTPClientError
            where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error)
        {
            throw WeatherProviderError.timedOut
        } catch is CancellationError {
            throw WeatherProviderError.timedOut
        } catch {
            throw WeatherProviderError.unreachable(String(describing: error))
        }
    }

    /// Names the member at fault, so a log line says which field a provider dropped.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let joined = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(
                separator: ".")
            return joined.isEmpty ? "the body" : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(key.stringValue) is missing" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is not valid"
        @unknown default:
            return "not in the expected shape"
        }
    }
}
