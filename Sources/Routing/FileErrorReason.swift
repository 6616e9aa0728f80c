import Foundation

/// Why reading or writing `path` failed, in a few lower-case words for a one-line error ("no such file",
/// "permission denied", "it is a directory").
func fileErrorReason(_ error: any Error, path: String) -> String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        return "it is a directory"
    }
    let nsError = error as NSError
    switch nsError.domain == NSCocoaErrorDomain ? nsError.code : 0 {
    case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file"
    case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
    default: break
    }
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(posix.code))).lowercased()
    }
    return nsError.localizedDescription
}
