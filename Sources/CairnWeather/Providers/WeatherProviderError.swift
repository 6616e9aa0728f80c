/// Why a weather provider gave no usable answer.
public enum WeatherProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer within the time limit.
    case timedOut
    /// The connection failed (refused, reset, name not resolved).
    case unreachable(String)
    /// The provider answered with an HTTP error status.
    case httpStatus(Int)
    /// The answer was not in the documented shape: not JSON, a field missing, an empty list.
    case malformed(String)
    /// The provider has no forecast for this place (NEA covers Singapore only).
    case outsideCoverage(String)
    /// The provider does not offer this kind of forecast.
    case unsupported(String)

    /// For logs.
    public var description: String {
        switch self {
        case .timedOut: "timed out"
        case .unreachable(let reason): "unreachable: \(reason)"
        case .httpStatus(let status): "HTTP status \(status)"
        case .malformed(let reason): "malformed answer: \(reason)"
        case .outsideCoverage(let reason): "outside coverage: \(reason)"
        case .unsupported(let reason): "unsupported: \(reason)"
        }
    }

    /// For people, naming the provider.
    func message(provider: String) -> String {
        switch self {
        case .timedOut: "\(provider) did not answer in time."
        case .unreachable, .httpStatus, .malformed: "\(provider) is not answering properly right now."
        case .outsideCoverage(let reason), .unsupported(let reason): reason
        }
    }
}
