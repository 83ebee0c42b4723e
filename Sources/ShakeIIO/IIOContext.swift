#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open libiio context: the set of IIO devices behind a URI.
///
/// URIs (libiio 0.24): `local:` (this machine's sysfs, the default), `ip:HOST` (a remote
/// `iiod`, `ip:127.0.0.1` for one on this machine), `usb:BUS.ADDRESS.INTERFACE` (`usb:` for the
/// first one found), `xml:FILE` (a description only, no samples).
///
/// The handle has a single owner: copying is impossible, and the C context is destroyed when
/// the value goes away (`deinit`) or at ``close()``. Not thread-safe: use it from one thread at
/// a time.
public struct IIOContext: ~Copyable {
    let pointer: OpaquePointer
    /// The URI this context was created from, e.g. `"local:"`.
    public let uri: String

    /// The URI used when none is given: `local:`.
    public static let defaultURI = "local:"

    /// The URI schemes libiio 0.24 can have backends for.
    public static let uriSchemes = ["local:", "ip:", "usb:", "xml:", "serial:"]

    /// Why `uri` cannot name a context, said before libiio is asked (which would answer only
    /// "Function not implemented"): nil when it starts with one of `uriSchemes`; otherwise that
    /// it needs a scheme, with the URI probably meant (`ip:192.168.2.1` for `192.168.2.1`).
    /// `forSamples: true` leaves `xml:FILE` out of the schemes the answer offers: a saved
    /// description cannot be read for samples. `local:` followed by anything is a problem too
    /// (libiio answers "Function not implemented" for it as well): the local backend takes no
    /// argument. So is an `ip:` URI's port that is no TCP port (`ip:host:abc`, `ip:host:`),
    /// which libiio answers with "No such file or directory".
    public static func schemeProblem(in uri: String, forSamples: Bool = false) -> String? {
        let usable = uriSchemes.contains { uri.hasPrefix($0) } && (uri == defaultURI || !uri.hasPrefix(defaultURI))
        guard usable else { return IIOError.schemeDetail(uri: uri, descriptions: !forSamples) }
        return uri.hasPrefix("ip:") ? IIOError.portProblem(ofHost: String(uri.dropFirst(3))) : nil
    }

    /// Opens the context at `uri`.
    /// - Parameter timeout: I/O timeout in seconds for this context's backend (libiio defaults:
    ///   1 s local, 5 s network); nil keeps the backend's default; 0 or `.infinity` waits for
    ///   ever (as in ``setTimeout(_:)``); at most about 49 days (libiio's limit) otherwise.
    /// - Throws: ``IIOError`` naming `iio_create_context_from_uri` and the URI.
    /// The corresponding C function is `iio_create_context_from_uri`.
    ///
    /// For network URIs (`ip:`), SIGPIPE is ignored process-wide from then on: libiio 0.24
    /// writes to its socket in a way that raises SIGPIPE when `iiod` has gone away, which would
    /// kill the process instead of returning `EPIPE`.
    public init(uri: String = IIOContext.defaultURI, timeout: Double? = nil) throws(IIOError) {
        if uri.hasPrefix("ip:") { signal(SIGPIPE, SIG_IGN) }
        let context = try LibIIO.createContext(uri: uri)
        if let timeout {
            do {
                try LibIIO.setTimeout(context, milliseconds: try Self.milliseconds(timeout: timeout, uri: uri), uri: uri)
            } catch {
                LibIIO.destroyContext(context)
                throw error
            }
        }
        pointer = context
        self.uri = uri
    }

    deinit { LibIIO.destroyContext(pointer) }

    /// Destroys the C context now. The corresponding C function is `iio_context_destroy`.
    public consuming func close() {}

    /// The backend serving this context: `"local"`, `"network"`, `"usb"` or `"xml"`.
    public var backend: String { LibIIO.backendName(pointer) }

    /// Sets the I/O timeout in seconds (0 or `.infinity`: wait for ever; at most about 49 days
    /// otherwise, libiio's limit; under a millisecond counts as one).
    /// The corresponding C function is `iio_context_set_timeout`.
    /// - Throws: ``IIOError`` of kind `.badValue` for a negative or NaN time.
    public func setTimeout(_ seconds: Double) throws(IIOError) {
        try LibIIO.setTimeout(pointer, milliseconds: try Self.milliseconds(timeout: seconds, uri: uri), uri: uri)
    }

    /// libiio's timeout in milliseconds for `seconds`: 0 (wait for ever) for 0 and `.infinity`,
    /// at least 1 ms otherwise, and at most `UInt32.max` ms (libiio's type).
    static func milliseconds(timeout seconds: Double, uri: String) throws(IIOError) -> UInt32 {
        guard seconds >= 0 else {
            throw IIOError(code: .invalidArgument, function: "iio_context_set_timeout", uri: uri,
                           detail: "timeout \(seconds) s; it must be 0 s or more (0 or .infinity: wait for ever)",
                           kind: .badValue)
        }
        if seconds == 0 || seconds == .infinity { return 0 }
        let milliseconds = (seconds * 1000).rounded(.up)
        return milliseconds >= Double(UInt32.max) ? UInt32.max : UInt32(milliseconds)
    }

    /// Every accelerometer in the context: devices with `accel_x`, `accel_y` and `accel_z`
    /// input channels. Reads each one's attributes (scale, offset, sampling frequency...). A
    /// malformed mount matrix does not hide the device: it is listed with
    /// ``AccelerometerDescription/mountMatrixProblem`` saying what is wrong.
    public func accelerometers() throws(IIOError) -> [AccelerometerDescription] {
        var found: [AccelerometerDescription] = []
        for device in LibIIO.devices(pointer) where !LibIIO.isTrigger(device) {
            guard let axes = AccelerometerChannels(device: device) else { continue }
            found.append(try AccelerometerDescription(device: device, axes: axes, deviceMatrixRequired: false, listing: true))
        }
        return found
    }

    /// Finds the accelerometer whose name, label or id is `name`; the first accelerometer when
    /// `name` is nil.
    /// - Throws: ``IIOError`` of kind `.notFound` listing the accelerometers present.
    func accelerometer(named name: String?) throws(IIOError) -> (device: OpaquePointer, axes: AccelerometerChannels) {
        var candidates: [(OpaquePointer, AccelerometerChannels)] = []
        for device in LibIIO.devices(pointer) where !LibIIO.isTrigger(device) {
            if let axes = AccelerometerChannels(device: device) { candidates.append((device, axes)) }
        }
        if let name {
            if let match = candidates.first(where: { device, _ in
                LibIIO.name(ofDevice: device) == name || LibIIO.label(ofDevice: device) == name
                    || LibIIO.id(ofDevice: device) == name
            }) {
                return match
            }
        } else if let first = candidates.first {
            return first
        }
        let present = candidates.map { device, _ in
            LibIIO.name(ofDevice: device) ?? LibIIO.id(ofDevice: device)
        }
        throw IIOError(
            code: .noSuchDevice, function: "iio_context_find_device", uri: uri, device: name,
            detail: present.isEmpty
                ? "no accelerometer (device with accel_x, accel_y and accel_z input channels) in this context"
                : "no such accelerometer; present: \(present.joined(separator: ", "))",
            kind: .notFound)
    }
}
