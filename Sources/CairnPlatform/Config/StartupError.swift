/// A problem that stops the server or a command before it can do its work, worded as one line that names
/// the problem and the fix. The CLI prints it without a stack trace and exits non-zero.
public struct StartupError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
