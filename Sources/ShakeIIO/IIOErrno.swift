#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An `errno` value reported by libiio or the C library underneath it.
///
/// libiio reports failures as negative errno codes (`iio_buffer_refill`, attribute reads) or as
/// `NULL` with `errno` set (`iio_create_context_from_uri`); both end up here.
public struct IIOErrno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The positive errno number, e.g. 13 for `EACCES`.
    public let rawValue: CInt

    public init(rawValue: CInt) { self.rawValue = rawValue }

    public static let operationNotPermitted = IIOErrno(rawValue: EPERM)
    public static let noSuchFile = IIOErrno(rawValue: ENOENT)
    public static let ioError = IIOErrno(rawValue: EIO)
    public static let noSuchDeviceOrAddress = IIOErrno(rawValue: ENXIO)
    public static let badFileDescriptor = IIOErrno(rawValue: EBADF)
    public static let tryAgain = IIOErrno(rawValue: EAGAIN)
    public static let permissionDenied = IIOErrno(rawValue: EACCES)
    public static let busy = IIOErrno(rawValue: EBUSY)
    public static let noSuchDevice = IIOErrno(rawValue: ENODEV)
    public static let invalidArgument = IIOErrno(rawValue: EINVAL)
    public static let brokenPipe = IIOErrno(rawValue: EPIPE)
    public static let notImplemented = IIOErrno(rawValue: ENOSYS)
    public static let connectionReset = IIOErrno(rawValue: ECONNRESET)
    public static let notConnected = IIOErrno(rawValue: ENOTCONN)
    public static let timedOut = IIOErrno(rawValue: ETIMEDOUT)
    public static let connectionRefused = IIOErrno(rawValue: ECONNREFUSED)
    public static let hostUnreachable = IIOErrno(rawValue: EHOSTUNREACH)

    /// The symbolic name, e.g. `"EACCES"`, or `"errno 123"` for codes this table does not know.
    public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

    private static let names: [CInt: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
        EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT",
        EBUSY: "EBUSY", EEXIST: "EEXIST", EISDIR: "EISDIR", ENODEV: "ENODEV", EINVAL: "EINVAL", ENOSPC: "ENOSPC",
        EPIPE: "EPIPE", ERANGE: "ERANGE", ENOSYS: "ENOSYS", EPROTO: "EPROTO", ENOTSUP: "ENOTSUP",
        ECONNRESET: "ECONNRESET", ENOTCONN: "ENOTCONN", ESHUTDOWN: "ESHUTDOWN",
        ETIMEDOUT: "ETIMEDOUT", ECONNREFUSED: "ECONNREFUSED", EHOSTDOWN: "EHOSTDOWN",
        EHOSTUNREACH: "EHOSTUNREACH", ENETUNREACH: "ENETUNREACH", ECONNABORTED: "ECONNABORTED", EROFS: "EROFS",
    ]

    /// The C library's message, e.g. `"Permission denied"`. The corresponding C function is `strerror`.
    public var message: String {
        guard let text = strerror(rawValue) else { return "Unknown error \(rawValue)" }
        return String(cString: text)
    }

    /// `"Permission denied (EACCES)"`.
    public var description: String { "\(message) (\(name))" }

    /// True for codes that mean the device or the connection to it is gone: a real device
    /// unplugged or unbound (`ENODEV`, `ENXIO`), its files gone (`ENOENT`), a remote `iiod`
    /// connection closed (`EPIPE`, `ECONNRESET`, `ENOTCONN`, `ESHUTDOWN`, `ECONNABORTED`).
    public var meansDeviceGone: Bool {
        [ENODEV, ENXIO, ENOENT, EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN, ECONNABORTED, EBADF]
            .contains(rawValue)
    }
}
