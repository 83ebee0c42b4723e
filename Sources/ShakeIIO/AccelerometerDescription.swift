import CLibIIO

/// What discovery knows about one accelerometer. `Codable` for `shake devices --format json`.
public struct AccelerometerDescription: Hashable, Sendable, Codable {
    /// libiio's device id, e.g. `"iio:device0"`.
    public var id: String
    /// The driver's device name, e.g. `"lis3dh"`; nil when it has none.
    public var name: String?
    /// The `label` attribute (e.g. `"accel-display"`), when the firmware gives one.
    public var label: String?
    /// `in_accel_scale`: m/s² per LSB after offset. nil when absent (raw values are used as-is)
    /// or unknown (an `xml:` description holds no attribute values; so for the next four).
    public var scale: Double?
    /// `in_accel_offset`, in LSB, added to raw before scaling. nil when absent (0).
    public var offset: Double?
    /// The y and z axes' own scales (`in_accel_y_scale`, `in_accel_z_scale`), when the driver
    /// gives each axis its own (per-axis calibration) and they differ from x's (`scale`, then
    /// `in_accel_x_scale`); nil when the axes share one.
    public var yzScales: [Double?]?
    /// The y and z axes' own offsets, as `yzScales` for `offset`; nil when the axes share one.
    public var yzOffsets: [Double?]?
    /// Current `sampling_frequency` in hertz; nil when the device has none (or, in a listing,
    /// when it holds no number: ``attributeProblem`` says so).
    public var samplingFrequencyHertz: Double?
    /// `sampling_frequency_available` in hertz, ascending; empty when not published.
    public var availableSamplingFrequenciesHertz: [Double]
    /// True when the axes are scan elements and can be read through a buffer; false means
    /// samples are read by polling `in_accel_*_raw`.
    public var isBufferCapable: Bool
    /// True when a `timestamp` scan element supplies nanosecond timestamps.
    public var hasTimestampChannel: Bool
    /// Storage format of the axes, e.g. `"le:s16/16>>0"` (little-endian, signed, 16 of 16 bits, shift 0).
    public var scanFormat: String?
    /// The name of the current trigger, when one is set.
    public var currentTrigger: String?
    /// The device's mount matrix, when it publishes one.
    public var mountMatrix: MountMatrix?
    /// Why the device's mount matrix could not be used (it cannot be read or parsed), naming the
    /// attribute; nil when it is fine or absent. Reading such a device needs `--mount-matrix`.
    public var mountMatrixProblem: String?
    /// Why an attribute that should hold a number could not be read as one (`in_accel_scale`
    /// holding `0.009576 (2g)`, `sampling_frequency` holding `100.000 Hz`, say), naming the
    /// device, attribute and text (several joined by `; `): each such attribute's value is
    /// then nil. Only in a listing (``IIOContext/accelerometers()``); reading such a device fails
    /// with it.
    public var attributeProblem: String?

    /// Each axis's scale, m/s² per LSB (x, y, z): its own, or the shared `scale`; 1 when none.
    public var axisScales: [Double] {
        [scale ?? 1] + (yzScales ?? [scale, scale]).map { $0 ?? 1 }
    }

    /// Each axis's offset, LSB (x, y, z): its own, or the shared `offset`; 0 when none.
    public var axisOffsets: [Double] {
        [offset ?? 0] + (yzOffsets ?? [offset, offset]).map { $0 ?? 0 }
    }

    /// A name to show and to select the device by: the name, else the id.
    public var displayName: String { name ?? id }

    public init(
        id: String, name: String? = nil, label: String? = nil, scale: Double? = nil, offset: Double? = nil,
        samplingFrequencyHertz: Double? = nil, availableSamplingFrequenciesHertz: [Double] = [],
        isBufferCapable: Bool = false, hasTimestampChannel: Bool = false, scanFormat: String? = nil,
        currentTrigger: String? = nil, mountMatrix: MountMatrix? = nil
    ) {
        self.id = id
        self.name = name
        self.label = label
        self.scale = scale
        self.offset = offset
        self.samplingFrequencyHertz = samplingFrequencyHertz
        self.availableSamplingFrequenciesHertz = availableSamplingFrequenciesHertz
        self.isBufferCapable = isBufferCapable
        self.hasTimestampChannel = hasTimestampChannel
        self.scanFormat = scanFormat
        self.currentTrigger = currentTrigger
        self.mountMatrix = mountMatrix
    }

    /// Reads what libiio lists for `device`. `deviceMatrixRequired`: false when the caller
    /// overrides the mount matrix or only lists devices, so that the device's matrix is read for
    /// information only and one that cannot be read or parsed is left out (nil, the reason in
    /// ``mountMatrixProblem``) instead of failing.
    /// `listing`: a value that is no number leaves that value nil and says so in
    /// ``attributeProblem`` instead of failing (a list shows every device, a bad one too).
    init(device: OpaquePointer, axes: AccelerometerChannels, deviceMatrixRequired: Bool = true,
         listing: Bool = false) throws(IIOError) {
        let attributes = DeviceAttributes(device: device, axes: axes)
        id = LibIIO.id(ofDevice: device)
        name = LibIIO.name(ofDevice: device)
        label = LibIIO.label(ofDevice: device)
        var problem: String?
        var problemKeys: Set<String> = []
        /// `read`, or nil with the problem noted when listing and the value is no number.
        func tolerant<T>(_ read: () throws(IIOError) -> T?) throws(IIOError) -> T? {
            do {
                return try Self.unlessUnreadable(read)
            } catch where listing && error.kind == .badValue {
                // The axes' shared `in_accel_scale`, read for each axis, is said once.
                if problemKeys.insert("\(error.attribute ?? "") \(error.detail ?? "")").inserted {
                    problem = problem.map { "\($0); \(error)" } ?? "\(error)"
                }
                return nil
            }
        }
        scale = try tolerant { () throws(IIOError) in try attributes.number(channelAttribute: "scale") }
        offset = try tolerant { () throws(IIOError) in try attributes.number(channelAttribute: "offset") }
        // libiio lists an axis's own `in_accel_y_scale` and the shared `in_accel_scale` alike,
        // as the channel's `scale`: read each axis's.
        func others(_ attribute: String, _ x: Double?) throws(IIOError) -> [Double?]? {
            var values: [Double?] = []
            for channel in [axes.y, axes.z] {
                values.append(try tolerant { () throws(IIOError) in
                    try attributes.number(channelAttribute: attribute, of: channel)
                })
            }
            return values.allSatisfy { $0 == x } ? nil : values
        }
        yzScales = try others("scale", scale)
        yzOffsets = try others("offset", offset)
        samplingFrequencyHertz = try tolerant { () throws(IIOError) in try attributes.samplingFrequency() }
        availableSamplingFrequenciesHertz = try Self.unlessUnreadable {
            () throws(IIOError) in try attributes.availableSamplingFrequencies()
        } ?? []
        isBufferCapable = axes.areScanElements
        hasTimestampChannel = axes.timestamp != nil
        scanFormat = LibIIO.dataFormat(axes.x).map(Self.describe)
        currentTrigger = try Self.unlessUnreadable { () throws(IIOError) in
            try LibIIO.trigger(of: device, deviceLabel: attributes.label).map {
                LibIIO.name(ofDevice: $0) ?? LibIIO.id(ofDevice: $0)
            }
        }
        if deviceMatrixRequired {
            mountMatrix = try attributes.mountMatrix()
        } else {
            do {
                mountMatrix = try attributes.mountMatrix()
            } catch {
                mountMatrixProblem = "\(error)"
            }
        }
        attributeProblem = problem
    }

    /// A value the backend cannot read at all is unknown (nil) rather than an error: libiio's xml
    /// backend holds a saved description, not the device, and answers every attribute read and
    /// the trigger query with ENOSYS.
    private static func unlessUnreadable<T>(_ read: () throws(IIOError) -> T?) throws(IIOError) -> T? {
        do {
            return try read()
        } catch {
            if error.code == .notImplemented { return nil }
            throw error
        }
    }

    /// `le:s16/16>>0` from libiio's data format.
    static func describe(_ format: iio_data_format) -> String {
        "\(format.is_be ? "be" : "le"):\(format.is_signed ? "s" : "u")\(format.bits)/\(format.length)>>\(format.shift)"
    }
}
