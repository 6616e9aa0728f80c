import CairnAPI
import Foundation
import NIOCore
import Vapor

extension HTTPServerConfiguration {
    /// The server as `AppConfig` sets it up: its timeouts, `CAIRN_MAX_BODY_BYTES`, gzip, and answers of its
    /// own worded as every other error of the API (`HTTPErrorPage.problem`).
    public init(cairn config: AppConfig) {
        self.init(
            settings: config.http, maxBodyBytes: config.maxBodyBytes, responseCompression: true, errorPage: .problem)
    }
}

extension HTTPErrorPage {
    /// A `Problem` as `ProblemMiddleware` writes it, with the headers `SecurityHeadersMiddleware` adds.
    public static let problem = HTTPErrorPage { status, detail in
        let body = (try? JSONEncoder().encode(Problem(status: status, detail: detail))) ?? Data("{}".utf8)
        var headers: HTTPHeaders = ["content-type": "application/problem+json; charset=utf-8"]
        SecurityHeadersMiddleware.add(to: &headers)
        return (headers, ByteBuffer(bytes: body))
    }
}
