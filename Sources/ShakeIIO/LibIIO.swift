import CLibIIO
#if canImport(Glibc)
import Glibc
#endif

/// The one place ShakeIIO calls libiio 0.24. Every function is a thin wrapper over one C call
/// (named in its doc comment) that turns NULL/negative errno returns into ``IIOError``.
/// Pointers handed out are owned by the context and valid until it is destroyed.
enum LibIIO {
    /// Size of the text buffer for attribute reads; sysfs attributes are at most a page.
    static let attributeCapacity = 4096

    // MARK: Contexts

    /// The corresponding C function is `iio_create_context_from_uri`.
    static func createContext(uri: String) throws(IIOError) -> OpaquePointer {
        try checkDescriptionFile(uri: uri)
        guard let context = iio_create_context_from_uri(uri) else {
            let raw = CLibIIO_errno()
            let code = IIOErrno(rawValue: raw == 0 ? ENODEV : raw)
            let notFound = code.rawValue == ENOENT || code.rawValue == ENODEV || code.rawValue == ENXIO
            // A port that is no port stays so: no waiting (--reconnect) cures it.
            let badPort = uri.hasPrefix("ip:") && IIOError.portProblem(ofHost: String(uri.dropFirst(3))) != nil
            throw IIOError(
                code: code, function: "iio_create_context_from_uri", uri: uri,
                detail: IIOError.contextDetail(uri: uri, code: code,
                                               sysfsPresent: access(IIOError.sysfsDevicesPath, F_OK) == 0),
                kind: badPort ? .badValue : notFound ? .notFound : nil)
        }
        return context
    }

    /// For `xml:FILE`, that FILE can be opened and is not a folder: libiio would answer only
    /// "Invalid argument" (and print its own "I/O error" to stderr), naming no file.
    static func checkDescriptionFile(uri: String) throws(IIOError) {
        guard uri.hasPrefix("xml:") else { return }
        let path = String(uri.dropFirst(4))
        func failure(_ code: CInt, _ detail: String) -> IIOError {
            IIOError(code: IIOErrno(rawValue: code), function: "open", uri: uri, detail: detail,
                     kind: code == ENOENT || code == EISDIR ? .notFound : nil)
        }
        if path.isEmpty { throw failure(EINVAL, "xml: names no file: give xml:FILE") }
        var fd: CInt
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            throw failure(code, code == ENOENT ? "the description file '\(path)' does not exist"
                : "the description file '\(path)' cannot be read")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw failure(EISDIR, "'\(path)' is a folder, not an IIO context description")
        }
    }

    /// The corresponding C function is `iio_context_destroy`.
    static func destroyContext(_ context: OpaquePointer) { iio_context_destroy(context) }

    /// The corresponding C function is `iio_context_set_timeout`.
    static func setTimeout(_ context: OpaquePointer, milliseconds: UInt32, uri: String) throws(IIOError) {
        let result = iio_context_set_timeout(context, milliseconds)
        if result < 0 {
            throw IIOError(code: IIOErrno(rawValue: -result), function: "iio_context_set_timeout", uri: uri)
        }
    }

    /// The corresponding C functions are `iio_context_get_devices_count` and `iio_context_get_device`.
    static func devices(_ context: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_context_get_devices_count(context)).compactMap { iio_context_get_device(context, $0) }
    }

    /// The corresponding C function is `iio_context_get_name` (`"local"`, `"network"`, `"usb"`).
    static func backendName(_ context: OpaquePointer) -> String {
        iio_context_get_name(context).map { String(cString: $0) } ?? "unknown"
    }

    // MARK: Devices

    /// The corresponding C function is `iio_device_get_id` (`"iio:device0"`).
    static func id(ofDevice device: OpaquePointer) -> String {
        iio_device_get_id(device).map { String(cString: $0) } ?? "?"
    }

    /// The corresponding C function is `iio_device_get_name`.
    static func name(ofDevice device: OpaquePointer) -> String? {
        iio_device_get_name(device).map { String(cString: $0) }
    }

    /// The corresponding C function is `iio_device_get_label`.
    static func label(ofDevice device: OpaquePointer) -> String? {
        iio_device_get_label(device).map { String(cString: $0) }
    }

    /// The corresponding C function is `iio_device_is_trigger`.
    static func isTrigger(_ device: OpaquePointer) -> Bool { iio_device_is_trigger(device) }

    /// The corresponding C functions are `iio_device_get_channels_count` and `iio_device_get_channel`.
    static func channels(_ device: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_device_get_channels_count(device)).compactMap { iio_device_get_channel(device, $0) }
    }

    /// The corresponding C functions are `iio_device_get_attrs_count` and `iio_device_get_attr`.
    static func attributeNames(ofDevice device: OpaquePointer) -> [String] {
        (0..<iio_device_get_attrs_count(device)).compactMap {
            iio_device_get_attr(device, $0).map { String(cString: $0) }
        }
    }

    /// The corresponding C function is `iio_device_get_buffer_attrs_count`.
    static func bufferAttributeCount(_ device: OpaquePointer) -> Int {
        Int(iio_device_get_buffer_attrs_count(device))
    }

    /// The corresponding C function is `iio_device_attr_read`.
    static func readAttribute(_ device: OpaquePointer, _ attribute: String, deviceLabel: String) throws(IIOError) -> String {
        try readText(function: "iio_device_attr_read", device: deviceLabel, channel: nil, attribute: attribute) {
            iio_device_attr_read(device, attribute, $0, $1)
        }
    }

    /// The corresponding C function is `iio_device_attr_write`.
    static func writeAttribute(_ device: OpaquePointer, _ attribute: String, _ value: String, deviceLabel: String) throws(IIOError) {
        let result = iio_device_attr_write(device, attribute, value)
        if result < 0 {
            throw IIOError(code: IIOErrno(rawValue: CInt(-result)), function: "iio_device_attr_write",
                           device: deviceLabel, attribute: attribute)
        }
    }

    /// The corresponding C function is `iio_device_buffer_attr_read`.
    static func readBufferAttribute(_ device: OpaquePointer, _ attribute: String, deviceLabel: String) throws(IIOError) -> String {
        try readText(function: "iio_device_buffer_attr_read", device: deviceLabel, channel: nil, attribute: "buffer/\(attribute)") {
            iio_device_buffer_attr_read(device, attribute, $0, $1)
        }
    }

    /// The corresponding C function is `iio_device_buffer_attr_write`.
    static func writeBufferAttribute(_ device: OpaquePointer, _ attribute: String, _ value: String, deviceLabel: String) throws(IIOError) {
        let result = iio_device_buffer_attr_write(device, attribute, value)
        if result < 0 {
            throw IIOError(code: IIOErrno(rawValue: CInt(-result)), function: "iio_device_buffer_attr_write",
                           device: deviceLabel, attribute: "buffer/" + attribute)
        }
    }

    /// The corresponding C function is `iio_device_get_trigger`; nil when the device has none.
    static func trigger(of device: OpaquePointer, deviceLabel: String) throws(IIOError) -> OpaquePointer? {
        var found: OpaquePointer? = nil
        let status = iio_device_get_trigger(device, &found)
        if status == -ENOENT || status == -ENODEV { return nil }
        if status < 0 {
            throw IIOError(code: IIOErrno(rawValue: -status), function: "iio_device_get_trigger",
                           device: deviceLabel, attribute: "trigger/current_trigger")
        }
        return found
    }

    /// The corresponding C function is `iio_device_set_trigger`.
    static func setTrigger(_ device: OpaquePointer, _ trigger: OpaquePointer?, deviceLabel: String) throws(IIOError) {
        let status = iio_device_set_trigger(device, trigger)
        if status < 0 {
            throw IIOError(code: IIOErrno(rawValue: -status), function: "iio_device_set_trigger",
                           device: deviceLabel, attribute: "trigger/current_trigger")
        }
    }

    // MARK: Channels

    /// The corresponding C function is `iio_channel_get_id` (`"accel_x"`).
    static func id(ofChannel channel: OpaquePointer) -> String {
        iio_channel_get_id(channel).map { String(cString: $0) } ?? "?"
    }

    /// The corresponding C function is `iio_channel_is_output`.
    static func isOutput(_ channel: OpaquePointer) -> Bool { iio_channel_is_output(channel) }

    /// The corresponding C function is `iio_channel_is_scan_element`.
    static func isScanElement(_ channel: OpaquePointer) -> Bool { iio_channel_is_scan_element(channel) }

    /// The corresponding C function is `iio_channel_find_attr`.
    static func hasAttribute(_ channel: OpaquePointer, _ attribute: String) -> Bool {
        iio_channel_find_attr(channel, attribute) != nil
    }

    /// The corresponding C function is `iio_channel_attr_read`.
    static func readChannelAttribute(_ channel: OpaquePointer, _ attribute: String, deviceLabel: String) throws(IIOError) -> String {
        try readText(function: "iio_channel_attr_read", device: deviceLabel,
                     channel: id(ofChannel: channel), attribute: attribute) {
            iio_channel_attr_read(channel, attribute, $0, $1)
        }
    }

    /// The corresponding C function is `iio_channel_attr_write`.
    static func writeChannelAttribute(_ channel: OpaquePointer, _ attribute: String, _ value: String, deviceLabel: String) throws(IIOError) {
        let result = iio_channel_attr_write(channel, attribute, value)
        if result < 0 {
            throw IIOError(code: IIOErrno(rawValue: CInt(-result)), function: "iio_channel_attr_write",
                           device: deviceLabel, channel: id(ofChannel: channel), attribute: attribute)
        }
    }

    /// The corresponding C functions are `iio_channel_enable` / `iio_channel_disable`.
    static func setEnabled(_ channel: OpaquePointer, _ enabled: Bool) {
        if enabled { iio_channel_enable(channel) } else { iio_channel_disable(channel) }
    }

    /// The corresponding C function is `iio_channel_get_data_format`.
    static func dataFormat(_ channel: OpaquePointer) -> iio_data_format? {
        iio_channel_get_data_format(channel)?.pointee
    }

    /// The corresponding C function is `iio_channel_convert`: hardware format (endianness, shift,
    /// sign) to a host-endian integer of `format.length` bits, sign-extended for a signed format
    /// (`le:s16/16`) and read as unsigned for an unsigned one (`le:u16/16`: 65535, not -1).
    static func convert(_ channel: OpaquePointer, from source: UnsafeRawPointer, format: iio_data_format) -> Int64 {
        var destination: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &destination) { bytes -> Int64 in
            iio_channel_convert(channel, bytes.baseAddress, source)
            if format.is_signed {
                switch format.length {
                case 8: return Int64(bytes.load(as: Int8.self))
                case 16: return Int64(bytes.load(as: Int16.self))
                case 32: return Int64(bytes.load(as: Int32.self))
                case 64: return bytes.load(as: Int64.self)
                default: return Int64(bytes.load(as: Int32.self))
                }
            }
            switch format.length {
            case 8: return Int64(bytes.load(as: UInt8.self))
            case 16: return Int64(bytes.load(as: UInt16.self))
            case 32: return Int64(bytes.load(as: UInt32.self))
            case 64: return Int64(truncatingIfNeeded: bytes.load(as: UInt64.self))
            default: return Int64(bytes.load(as: UInt32.self))
            }
        }
    }

    // MARK: Buffers

    /// The corresponding C function is `iio_device_create_buffer` (not cyclic).
    static func createBuffer(_ device: OpaquePointer, samples: Int, deviceLabel: String) throws(IIOError) -> OpaquePointer {
        guard let buffer = iio_device_create_buffer(device, samples, false) else {
            let code = IIOErrno(rawValue: CLibIIO_errno() == 0 ? EIO : CLibIIO_errno())
            let denied = IIOError.kind(for: code) == .permissionDenied
            // Which files: libiio does not say, and a user setting up access needs to know.
            var detail: String?
            let local = iio_device_get_context(device).map { backendName($0) == "local" } ?? false
            if [ENOENT, ENXIO, ENODEV, EISDIR, ENOTDIR].contains(code.rawValue), local,
               let problem = deviceNodeProblem(deviceID: id(ofDevice: device)) {
                // libiio's ENOENT or ENXIO read as a device unplugged; the device is there, its
                // /dev node is not (or is not its node): what is missing is named. The kind stays
                // the code's (a device gone, for ENOENT): a node that udev makes after the device's
                // sysfs directory is waited for by a reconnecting reader.
                detail = problem
            }
            if denied {
                let id = id(ofDevice: device)
                detail = "reading through the buffer opens /dev/\(id) for reading and writing and writes "
                    + "the device's scan_elements/*_en and buffer/length and buffer/enable"
                let files = local ? filesDenied(deviceID: id) : []
                if !files.isEmpty { detail! += "; this process may not: " + files.joined(separator: ", ") }
            }
            throw IIOError(code: code, function: "iio_device_create_buffer", device: deviceLabel, detail: detail)
        }
        return buffer
    }

    /// The first line of a small file (a sysfs attribute), without its line end; nil when it
    /// cannot be read or is empty.
    static func firstLine(ofFile path: String) -> String? {
        var fd: CInt
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let line = bytes[..<count].prefix { $0 != UInt8(ascii: "\n") && $0 != 0 }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// What is wrong with `/dev/ID`, through which libiio's local backend reads a buffer, or nil
    /// when it is the device's character device (or a named pipe, the emulator's): missing (a
    /// container given /sys but not the device node, a system without devtmpfs or mdev), a
    /// directory or regular file, or another device than the one sysfs names
    /// (`/sys/bus/iio/devices/ID/dev`, `MAJOR:MINOR`).
    static func deviceNodeProblem(deviceID id: String, devRoot: String = "/dev", sysfsRoot: String = "/sys/bus/iio/devices") -> String? {
        let node = "\(devRoot)/\(id)"
        let numbers = firstLine(ofFile: "\(sysfsRoot)/\(id)/dev")
        let create = "create it (mknod \(node) c \(numbers.map { $0.replacing(":", with: " ") } ?? "MAJOR MINOR"): the numbers "
            + "in \(sysfsRoot)/\(id)/dev), or pass it into the container; or read by polling instead (polled mode)"
        var info = stat()
        guard stat(node, &info) == 0 else {
            guard errno == ENOENT else { return nil }
            return "\(node) does not exist, and the buffer is read through it (a container given /sys but not the "
                + "device node, or a system without devtmpfs or mdev): " + create
        }
        // A named pipe is how Scripts/iio-emulator stands in for the node: not questioned.
        if info.st_mode & S_IFMT == S_IFIFO { return nil }
        guard info.st_mode & S_IFMT == S_IFCHR else {
            let what = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a regular file"
            return "\(node) is \(what), not the device's character device: remove it and " + create
        }
        let device = UInt64(info.st_rdev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        guard let numbers, numbers != "\(major):\(minor)" else { return nil }
        return "\(node) is character device \(major):\(minor), not the device's \(numbers): remove it and " + create
    }

    /// What this process (its effective user and groups) may not do of what reading a local
    /// device through its buffer needs: open `/dev/ID` for reading and writing, write
    /// `buffer/length`, `buffer/enable` and each `scan_elements/*_en` under
    /// /sys/bus/iio/devices/ID. Each as `write /sys/…/buffer/enable` or `read and write
    /// /dev/iio:device0`; files that are not there are left out.
    static func filesDenied(deviceID id: String) -> [String] {
        func may(_ path: String, _ mode: CInt) -> Bool? {
            guard faccessat(AT_FDCWD, path, F_OK, AT_EACCESS) == 0 else { return nil }
            return faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0
        }
        var denied: [String] = []
        let node = "/dev/\(id)"
        if may(node, R_OK | W_OK) == false { denied.append("read and write \(node)") }
        let sysfs = "\(IIOError.sysfsDevicesPath)/\(id)"
        var written = ["\(sysfs)/buffer/length", "\(sysfs)/buffer/enable"]
        if let directory = opendir("\(sysfs)/scan_elements") {
            var enables: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix("_en") { enables.append("\(sysfs)/scan_elements/\(name)") }
            }
            closedir(directory)
            written += enables.sorted()
        }
        for path in written where may(path, W_OK) == false { denied.append("write \(path)") }
        return denied
    }

    /// The corresponding C function is `iio_buffer_destroy`.
    static func destroyBuffer(_ buffer: OpaquePointer) { iio_buffer_destroy(buffer) }

    /// The corresponding C function is `iio_buffer_refill`; returns the bytes read, or the
    /// positive errno code on failure (callers decide what a timeout or `EAGAIN` means).
    static func refill(_ buffer: OpaquePointer) -> RefillResult {
        let result = iio_buffer_refill(buffer)
        return result < 0 ? .failed(IIOErrno(rawValue: CInt(-result))) : .bytes(result)
    }

    enum RefillResult {
        case bytes(Int)
        case failed(IIOErrno)
    }

    /// The corresponding C function is `iio_buffer_set_blocking_mode`; returns false if the
    /// backend does not support non-blocking mode.
    static func setBlocking(_ buffer: OpaquePointer, _ blocking: Bool) -> Bool {
        iio_buffer_set_blocking_mode(buffer, blocking) == 0
    }

    /// The corresponding C function is `iio_buffer_get_poll_fd`; nil when the backend has none.
    static func pollDescriptor(_ buffer: OpaquePointer) -> CInt? {
        let fd = iio_buffer_get_poll_fd(buffer)
        return fd < 0 ? nil : fd
    }

    /// The corresponding C function is `iio_buffer_cancel` (safe from another thread).
    static func cancel(_ buffer: OpaquePointer) { iio_buffer_cancel(buffer) }

    /// The corresponding C functions are `iio_buffer_first`, `iio_buffer_step`, `iio_buffer_end`.
    static func layout(_ buffer: OpaquePointer, first channel: OpaquePointer) -> (first: UnsafeRawPointer?, step: Int, end: UnsafeRawPointer?) {
        (UnsafeRawPointer(iio_buffer_first(buffer, channel)), iio_buffer_step(buffer),
         UnsafeRawPointer(iio_buffer_end(buffer)))
    }

    // MARK: Helpers

    private static func readText(
        function: String, device: String, channel: String?, attribute: String,
        _ call: (UnsafeMutablePointer<CChar>, Int) -> Int
    ) throws(IIOError) -> String {
        var storage = [CChar](repeating: 0, count: attributeCapacity)
        let result = storage.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        if result < 0 {
            throw IIOError(code: IIOErrno(rawValue: CInt(-result)), function: function,
                           device: device, channel: channel, attribute: attribute)
        }
        let count = min(max(result, 0), attributeCapacity - 1)
        let bytes = storage[0..<count].map { UInt8(bitPattern: $0) }.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
