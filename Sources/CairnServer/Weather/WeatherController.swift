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
        let query = try WeatherQuery(req)
        let cell = WeatherCell(query.location)
        let outcome = await service.nowcast(at: cell)
        let reports = WeatherReports(units: query.units, now: service.now())
        return try await send(
            reports.response(outcome, source: service.providers.nowcast.source, cell: cell, report: reports.nowcast),
            for: req)
    }

    func current(req: Request) async throws -> Response {
        let query = try WeatherQuery(req)
        let cell = WeatherCell(query.location)
        let outcome = await service.current(at: cell)
        let reports = WeatherReports(units: query.units, now: service.now())
        return try await send(
            reports.response(outcome, source: service.providers.conditions.source, cell: cell, report: reports.current),
            for: req)
    }

    func forecast(req: Request) async throws -> Response {
        let query = try WeatherQuery(req, acceptsDays: true)
        let cell = WeatherCell(query.location)
        let outcome = await service.forecast(at: cell)
        let reports = WeatherReports(units: query.units, now: service.now())
        return try await send(
            reports.response(outcome, source: service.providers.conditions.source, cell: cell) {
                reports.forecast($0, count: query.days)
            },
            for: req)
    }

    /// Fresh answers may be reused by the browser for a minute; stale and unavailable ones not at all.
    private func send<Report>(_ body: WeatherResponse<Report>, for req: Request) async throws -> Response {
        let response = try await body.encodeResponse(for: req)
        response.headers.replaceOrAdd(
            name: .cacheControl, value: body.status == .ok ? "private, max-age=60" : "no-store")
        return response
    }
}
