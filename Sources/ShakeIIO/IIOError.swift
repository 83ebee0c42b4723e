#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure talking to an IIO device through libiio.
///
/// Names the C function that failed and, where there is one, the context URI, device, channel
/// and attribute, e.g.
/// `iio_device_attr_read(device "accel0", attribute "sampling_frequency"): Permission denied (EACCES)`,
/// followed by a hint for permission errors and vanished devices.
public struct IIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for code that reacts to it.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The device, its files or the connection to a remote `iiod` went away: a call failed
        /// with a code meaning so (``IIOErrno/meansDeviceGone``: `ENODEV`, `ENOENT`, `EPIPE`,
        /// `ECONNRESET`...), or with `EIO` while reading, or a stalled buffer's device turned out
        /// to have vanished.
        case deviceGone
        /// No permission (`EACCES`, `EPERM`) to read or write the device's sysfs files
        /// (`sampling_frequency`, the buffer and scan elements) or to open `/dev/iio:deviceN`.
        case permissionDenied
        /// Something did not happen within its time: no samples within
        /// ``AccelerometerReadOptions/readTimeout`` while the device was still present (buffered
        /// mode); a read of `in_accel_*_raw` that has not returned within it (polled mode, a
        /// stuck sensor or bus; also one an earlier reader gave up that is still blocked); a
        /// context that ``ReconnectingAccelerometerReader`` could not open within it; and any
        /// call failing with `ETIMEDOUT` (a host or `iiod` that does not answer in time).
        case timedOut
        /// What was asked for is not there: no context at the URI (no IIO devices on this
        /// machine, no USB device), an `xml:` description file that does not exist (or is a
        /// folder), no such accelerometer (or none at all), or no trigger of the name given
        /// (``AccelerometerReadOptions/trigger``).
        case notFound
        /// A value that cannot be understood or used: one read from the device (an attribute
        /// that is no number, a mount matrix that is none or no rotation, a sampling rate of 0 or
        /// less), a mount matrix given as text, or options that cannot work
        /// (``AccelerometerReadOptions/problem``, a negative timeout).
        case badValue
        /// Anything else libiio or the C library reported (``IIOError/code`` says what), and a
        /// reader asked to read while it reads or after it has read (`EBUSY`).
        case other
    }

    /// The errno code from libiio or the C library (`EINVAL` for values this library rejected).
    public var code: IIOErrno
    /// The C function (or library step) that failed, e.g. `"iio_buffer_refill"`.
    public var function: String
    /// The context URI, e.g. `"ip:127.0.0.1"`, when the failure concerns a whole context.
    public var uri: String?
    /// The device name (or id when it has no name).
    public var device: String?
    /// The channel id, e.g. `"accel_x"`.
    public var channel: String?
    /// The attribute, e.g. `"sampling_frequency"` or `"raw"`.
    public var attribute: String?
    /// Extra explanation appended after the errno text.
    public var detail: String?
    /// The kind, derived from the code unless set explicitly.
    public var kind: Kind

    public init(
        code: IIOErrno, function: String, uri: String? = nil, device: String? = nil,
        channel: String? = nil, attribute: String? = nil, detail: String? = nil, kind: Kind? = nil
    ) {
        self.code = code
        self.function = function
        self.uri = uri
        self.device = device
        self.channel = channel
        self.attribute = attribute
        self.detail = detail
        self.kind = kind ?? Self.kind(for: code)
    }

    static func kind(for code: IIOErrno) -> Kind {
        if code == .permissionDenied || code == .operationNotPermitted { return .permissionDenied }
        if code == .timedOut { return .timedOut }
        if code.meansDeviceGone { return .deviceGone }
        return .other
    }

    /// Whether waiting may cure it: the device, its context or `iiod` is not there (yet), or did
    /// not answer in time. Not a permission error, a value that cannot be understood, or a URI
    /// libiio has no backend for: those stay until someone changes something.
    public var mayClearUpByWaiting: Bool {
        switch kind {
        case .deviceGone, .notFound, .timedOut: return true
        case .permissionDenied, .badValue: return false
        case .other:
            // Refused or unreachable (iiod or the network not up yet), busy, or an I/O error
            // from a device still being probed.
            return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, EAGAIN, EBUSY, EIO, EINTR].contains(code.rawValue)
        }
    }

    /// Where it happened: `uri "ip:host", device "accel0", channel "accel_x", attribute "raw"`.
    public var subject: String {
        var parts: [String] = []
        if let uri { parts.append("uri \"\(uri)\"") }
        if let device { parts.append("device \"\(device)\"") }
        if let channel { parts.append("channel \"\(channel)\"") }
        if let attribute { parts.append("attribute \"\(attribute)\"") }
        return parts.joined(separator: ", ")
    }

    /// What the user can do about it, or nil.
    public var hint: String? {
        switch kind {
        case .permissionDenied:
            // A udev rule's GROUP and MODE reach the /dev node only: a rule with just those leaves
            // every write to sysfs denied (tried against the emulator: DeviceAccessTests).
            return "run as root, or give a group access with a udev rule: its GROUP= and MODE= set "
                + "/dev/iio:deviceN only, so the sysfs files written (sampling_frequency, buffer/length, "
                + "buffer/enable, scan_elements/*_en in /sys/bus/iio/devices/iio:deviceN) need a chgrp and "
                + "chmod g+w from the rule's RUN+= too (ShakeKit's Scripts/device/60-shakekit-iio.rules does "
                + "both); then add the user to the group (usermod -aG GROUP USER) and log in again"
        case .deviceGone where function == "iio_device_create_buffer" && detail != nil:
            // The detail names what is missing: its /dev node (`LibIIO.deviceNodeProblem`).
            return nil
        case .deviceGone where function == "iio_create_context_from_uri" && detail != nil:
            // A connection to iiod that ended before there was a context: the detail says so.
            return nil
        case .deviceGone:
            return "it was unplugged, its driver unbound, or the connection to iiod closed"
        case .other where code.rawValue == EROFS:
            // libiio writes the device's files under /sys to start a buffer or set the rate.
            return "sysfs is mounted read-only here (a container's read-only /sys, or systemd's ProtectKernelTunables=), "
                + "and reading through the buffer writes /sys/bus/iio/devices/iio:deviceN/buffer/enable, buffer/length and "
                + "scan_elements/*_en (setting the rate writes sampling_frequency): mount /sys/bus/iio writable for this "
                + "program, or read by polling without setting the rate"
        case .timedOut where function == "iio_create_context_from_uri":
            return nil
        case .timedOut where function == "iio_channel_attr_read":
            return "the driver did not answer: is the sensor or its bus (I2C, SPI) stuck?"
        case .timedOut:
            return "the device sent no samples in time: is it stalled, or its trigger not running?"
        default:
            return nil
        }
    }

    /// Where the Linux kernel lists IIO devices; libiio's `local:` backend reads it.
    static let sysfsDevicesPath = "/sys/bus/iio/devices"

    /// Why a context at `uri` was not found, in the user's terms, or nil when there is nothing
    /// to add to the errno text. `sysfsPresent`: whether `/sys/bus/iio/devices` exists.
    static func noContextDetail(uri: String, sysfsPresent: Bool) -> String? {
        if uri == "local:" || uri.hasPrefix("local:") {
            return sysfsPresent
                ? "libiio found no IIO devices in \(sysfsDevicesPath)"
                : "this machine has no IIO devices: \(sysfsDevicesPath) does not exist (no IIO driver "
                    + "is loaded); for a sensor on another machine, use its iiod with the URI ip:HOST"
        }
        if uri.hasPrefix("usb:") {
            return "no USB IIO device found: is it plugged in, and may this user open it?"
        }
        return nil
    }

    /// The TCP port `iiod` listens on (libiio's `IIOD_PORT`).
    static let iiodPort = 30431

    /// The port of `host` as an `ip:` URI gives it (`127.0.0.1:1234`, `[::1]:1234`), else
    /// `iiodPort`. A bare IPv6 address (`::1`, several colons) has none.
    static func port(ofHost host: String) -> Int {
        portText(ofHost: host).flatMap(portNumber) ?? iiodPort
    }

    /// What is wrong with the port `host` gives (`127.0.0.1:abc`, `[::1]:0`, `host:`), or nil
    /// when it gives none or a TCP port (1 to 65535): libiio answers only `ENOENT` for such a port.
    static func portProblem(ofHost host: String) -> String? {
        guard let port = portText(ofHost: host), portNumber(port) == nil else { return nil }
        return port.isEmpty
            ? "nothing follows the port's colon: give ip:HOST (iiod's port, \(iiodPort)) or ip:HOST:PORT"
            : "'\(port)' is no TCP port: a port is a number from 1 to 65535 (iiod's is \(iiodPort))"
    }

    /// What follows the colon of the port `host` gives (empty for a bare colon); nil when it
    /// gives none.
    private static func portText(ofHost host: String) -> Substring? {
        let tail: Substring
        if let bracket = host.lastIndex(of: "]") {
            tail = host[host.index(after: bracket)...]
        } else if host.count(where: { $0 == ":" }) == 1 {
            tail = host[host.firstIndex(of: ":")!...]
        } else {
            return nil
        }
        return tail.hasPrefix(":") ? tail.dropFirst() : nil
    }

    /// `text` as a TCP port, read as libiio reads it (strtol: spaces before it and a sign are
    /// let be); nil when it is none.
    private static func portNumber(_ text: Substring) -> Int? {
        guard let number = Int(text.drop { $0 == " " || $0 == "\t" }), (1...65535).contains(number) else { return nil }
        return number
    }

    /// What to add to the errno text when `iio_create_context_from_uri` fails with `code` for
    /// `uri`, in the user's terms, or nil when there is nothing to add.
    static func contextDetail(uri: String, code: IIOErrno, sysfsPresent: Bool) -> String? {
        let host = uri.hasPrefix("ip:") ? String(uri.dropFirst(3)) : nil
        // `ip:` alone asks libiio to find an iiod on the network (DNS-SD), which fails with odd
        // codes (ETXTBSY) when it cannot.
        if host == "" {
            return "'ip:' without a host looks for an iiod on the network by DNS-SD, and none was found: "
                + "give the host, ip:HOST (ip:127.0.0.1 for iiod on this machine)"
        }
        let port = host.map(Self.port(ofHost:)) ?? iiodPort
        switch code.rawValue {
        case ENOENT, ENODEV, ENXIO:
            if let detail = noContextDetail(uri: uri, sysfsPresent: sysfsPresent) { return detail }
            if let host, let problem = portProblem(ofHost: host) { return problem }
            if let host, !host.isEmpty, code.rawValue == ENXIO {
                return "no host \"\(host)\" was found: is the name right, and is it on this network?"
            }
            return nil
        case EPIPE, ECONNRESET:
            // libiio 0.24 also answers EPIPE when iiod stays silent for its 5 s.
            guard let host else { return nil }
            return "the connection to iiod at \(host) (TCP port \(port)) ended before it gave the context: it was closed, "
                + "or nothing answered within libiio's 5 s; is iiod what listens on that port, and is it running?"
        case EINVAL:
            guard let host else { return nil }
            return "what answered at \(host) (TCP port \(port)) gave no context libiio can read: is iiod what listens "
                + "on that port?"
        case ECONNREFUSED:
            guard let host else { return nil }
            return "iiod is not running at \(host), or not reachable there: nothing accepted the connection on "
                + "TCP port \(port)\(port == iiodPort ? " (iiod's port)" : "")"
                + "; start iiod on that machine, or check the address"
        case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN:
            guard let host else { return nil }
            return "iiod at \(host) is not reachable (TCP port \(port)): is the host up, on this network, "
                + "and is the port not blocked by a firewall?"
        case ENOSYS:
            return schemeDetail(uri: uri)
        default:
            return nil
        }
    }

    /// Why libiio does not understand `uri` (it answers `ENOSYS` for a URI without a scheme it
    /// has a backend for), with the URI the user probably meant. `descriptions: false` leaves
    /// `xml:FILE` out of the schemes offered, for a caller that needs samples (a saved
    /// description has none).
    static func schemeDetail(uri: String, descriptions: Bool = true) -> String {
        let offered = ["local: (this machine's devices)", "ip:HOST (iiod on HOST)",
                       "usb: or usb:BUS.ADDRESS.INTERFACE (a USB device)"]
            + (descriptions ? ["xml:FILE (a saved description)"] : [])
        let schemes = offered.joined(separator: ", ")
        guard let colon = uri.firstIndex(of: ":") else {
            let meant = switch uri {
            case "local", "usb": uri + ":"
            case "ip": "ip:HOST"
            case "xml": "xml:FILE"
            default: "ip:" + uri
            }
            return "the URI needs a scheme: \(schemes); did you mean \(meant)?"
        }
        if uri[..<colon] == "local" {
            return "the local backend takes nothing after 'local:' (it reads this machine's devices): use local:"
        }
        return "this libiio has no backend for the scheme '\(uri[..<colon]):'; the URI needs one of: \(schemes)"
    }

    public var description: String {
        var text = "\(function)(\(subject)): \(code)"
        if let detail { text += ": \(detail)" }
        if let hint { text += "; \(hint)" }
        return text
    }
}
