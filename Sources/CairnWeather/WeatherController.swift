import CairnAPI
import Vapor

extension WeatherResponse: Content {}

/// `GET /api/weather/nowcast|current|forecast?lat=&lon=`. Always 200 for a valid query — with `status`
/// `ok`, `stale` or `unavailable` — so a slow or failing provider never breaks a page; 422 names each
/// invalid parameter.
struct WeatherController: RouteCollection {
    let service: WeatherService

    func boot(routes: any RoutesBuilder) throws {
        let weather = routes.grouped("weather")
        weather.get("nowcast", use: nowcast)
        weather.get("current", use: current)
        weather.get("forecast", use: forecast)
    }

    func nowcast(req: Request) async throws -> Response {
        try await answer(req, from: service.providers.nowcast, fetch: service.nowcast) { reports, _ in
            reports.nowcast
        }
    }

    func current(req: Request) async throws -> Response {
        try await answer(req, from: service.providers.conditions, fetch: service.current) { reports, _ in
            reports.current
        }
    }

    func forecast(req: Request) async throws -> Response {
        try await answer(req, acceptsDays: true, from: service.providers.conditions, fetch: service.forecast) {
            reports, query in { reports.forecast($0, count: query.days) }
        }
    }

    /// Validates the query, gets the cell's weather and writes the response. Fresh answers may be reused by
    /// the browser for a minute; stale and unavailable ones not at all.
    private func answer<Value, Report: Codable & Sendable & Equatable>(
        _ req: Request, acceptsDays: Bool = false, from provider: any WeatherProvider,
        fetch: (WeatherCell) async -> WeatherCache<Value>.Outcome,
        report: (WeatherReports, WeatherQuery) -> (Value) -> Report?
    ) async throws -> Response {
        let query = try WeatherQuery(req, acceptsDays: acceptsDays)
        let cell = WeatherCell(query.location)
        let outcome = await fetch(cell)
        let reports = WeatherReports(units: query.units, now: service.now())
        let body = reports.response(outcome, source: provider.source, cell: cell, report: report(reports, query))
        let response = try await body.encodeResponse(for: req)
        let cacheControl = body.status == .ok ? "private, max-age=60" : "no-store"
        response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
        return response
    }
}
