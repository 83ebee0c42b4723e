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
    /// `sampling_frequency_available` in hertz, ascending; empty when not published, or when it
    /// holds anything but numbers (``availableSamplingFrequenciesProblem``).
    public var availableSamplingFrequenciesHertz: [Double]
    /// Why `sampling_frequency_available` could not be read as rates, naming the device,
    /// attribute and text (`'12.5Hz 25Hz' is not a list of numbers …`); nil when it is fine or
    /// absent. Reading does not fail with it: a rate asked for is then written as it is, for the
    /// driver to round.
    public var availableSamplingFrequenciesProblem: String?
    /// `in_accel_scale_available`: the scales the driver offers, m/s² per LSB, ascending; each is
    /// a measuring range (``range(atScale:)``), chosen by writing it to `in_accel_scale`. Empty
    /// when not published, or when it holds anything but numbers (``availableScalesProblem``).
    public var availableScales: [Double]
    /// Why `in_accel_scale_available` could not be read as a list of scales, naming the device,
    /// attribute and text (`'2g 4g' is not a list of numbers`); nil when it is fine or absent.
    /// Unlike ``attributeProblem``, reading the device does not fail with it: the list only
    /// says which ranges the driver offers.
    public var availableScalesProblem: String?
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

    /// The measuring range, m/s²: the largest acceleration that every axis can report in both
    /// directions, `(raw + offset) · scale` at the raw limits that ``scanFormat`` allows, on the
    /// smaller side (with an offset the sides differ), for the axis whose range is smallest
    /// (each with its own scale and offset). So 32767 · scale for `le:s16/16>>0` (not 32768:
    /// -32768 has no positive twin), 2047 · scale for `le:s12/16>>4`, and for `le:u16/16>>0`
    /// with the offset -32768, 32767 · scale. An acceleration beyond it reads as the range
    /// (clipped). nil when it cannot be known: no scan format (a polled device without scan
    /// elements), or no scale (absent; no number: ``attributeProblem``; unknown, as in an `xml:`
    /// description), as a raw count says nothing of m/s² then. It is what the format can carry:
    /// a driver that reports in physical units, as HID sensor hubs do (`accel_3d`), has a range
    /// here far wider than where its sensor clips.
    public var rangeMetersPerSecondSquared: Double? {
        Self.range(scanFormat: scanFormat, scales: [scale] + (yzScales ?? [scale, scale]), offsets: axisOffsets)
    }

    /// The measuring range, m/s², once `scale` (m/s² per LSB, e.g. one of ``availableScales``) is
    /// written to `in_accel_scale`: as ``rangeMetersPerSecondSquared``, with every axis at that
    /// scale and its own offset. nil when the scan format is unknown.
    public func range(atScale scale: Double) -> Double? {
        Self.range(scanFormat: scanFormat, scales: [scale, scale, scale], offsets: axisOffsets)
    }

    /// The smallest axis's range, m/s², for the raw limits of `scanFormat` and each axis's
    /// scale and offset; nil when the format gives no limits or an axis has no scale.
    static func range(scanFormat: String?, scales: [Double?], offsets: [Double]) -> Double? {
        guard let scanFormat, let limits = rawLimits(scanFormat: scanFormat) else { return nil }
        var smallest = Double.infinity
        for (scale, offset) in zip(scales, offsets) {
            guard let scale, scale.isFinite else { return nil }
            let ends = [(limits.lowest + offset) * scale, (limits.highest + offset) * scale]
            // Both ways: the smaller of the largest positive and the largest negative value.
            smallest = min(smallest, max(0, min(ends.max()!, -ends.min()!)))
        }
        return smallest.isFinite ? smallest : nil
    }

    /// The raw values a scan format allows (sign and bits, whatever the shift and storage):
    /// -2048...2047 for `le:s12/16>>4`, 0...65535 for `le:u16/16>>0`; nil for text that is no
    /// scan format, or one of 0 bits (libiio's for an axis that is no scan element).
    static func rawLimits(scanFormat: String) -> (lowest: Double, highest: Double)? {
        guard let colon = scanFormat.firstIndex(of: ":") else { return nil }
        let type = scanFormat[scanFormat.index(after: colon)...]
        guard let sign = type.first, sign == "s" || sign == "u",
              let bits = Int(type.dropFirst().prefix { $0.isASCII && $0.isNumber }), (1...64).contains(bits)
        else { return nil }
        if sign == "s" {
            let half = Double(sign: .plus, exponent: bits - 1, significand: 1)
            return (-half, half - 1)
        }
        return (0, Double(sign: .plus, exponent: bits, significand: 1) - 1)
    }

    /// A name to show and to select the device by: the name, else the id.
    public var displayName: String { name ?? id }

    public init(
        id: String, name: String? = nil, label: String? = nil, scale: Double? = nil, offset: Double? = nil,
        samplingFrequencyHertz: Double? = nil, availableSamplingFrequenciesHertz: [Double] = [],
        availableScales: [Double] = [], isBufferCapable: Bool = false, hasTimestampChannel: Bool = false, scanFormat: String? = nil,
        currentTrigger: String? = nil, mountMatrix: MountMatrix? = nil
    ) {
        self.id = id
        self.name = name
        self.label = label
        self.scale = scale
        self.offset = offset
        self.samplingFrequencyHertz = samplingFrequencyHertz
        self.availableSamplingFrequenciesHertz = availableSamplingFrequenciesHertz
        self.availableScales = availableScales
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
        // For information and for choosing a rate: a list that is no list leaves the device
        // usable, and is said.
        do {
            availableSamplingFrequenciesHertz = try Self.unlessUnreadable {
                () throws(IIOError) in try attributes.availableSamplingFrequencies()
            } ?? []
        } catch where error.kind == .badValue {
            availableSamplingFrequenciesHertz = []
            availableSamplingFrequenciesProblem = "\(error)"
        }
        // For information only: a list that is no list leaves the device usable, and is said.
        do {
            availableScales = try Self.unlessUnreadable { () throws(IIOError) in try attributes.availableScales() } ?? []
        } catch where error.kind == .badValue {
            availableScales = []
            availableScalesProblem = "\(error)"
        }
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

extension AccelerometerDescription {
    /// Decodes what `JSONEncoder` wrote of a description, also one written before
    /// ``availableScales`` existed (it is then empty).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        label = try container.decodeIfPresent(String.self, forKey: .label)
        scale = try container.decodeIfPresent(Double.self, forKey: .scale)
        offset = try container.decodeIfPresent(Double.self, forKey: .offset)
        yzScales = try container.decodeIfPresent([Double?].self, forKey: .yzScales)
        yzOffsets = try container.decodeIfPresent([Double?].self, forKey: .yzOffsets)
        samplingFrequencyHertz = try container.decodeIfPresent(Double.self, forKey: .samplingFrequencyHertz)
        availableSamplingFrequenciesHertz = try container.decode([Double].self, forKey: .availableSamplingFrequenciesHertz)
        availableSamplingFrequenciesProblem = try container.decodeIfPresent(String.self,
                                                                           forKey: .availableSamplingFrequenciesProblem)
        availableScales = try container.decodeIfPresent([Double].self, forKey: .availableScales) ?? []
        availableScalesProblem = try container.decodeIfPresent(String.self, forKey: .availableScalesProblem)
        isBufferCapable = try container.decode(Bool.self, forKey: .isBufferCapable)
        hasTimestampChannel = try container.decode(Bool.self, forKey: .hasTimestampChannel)
        scanFormat = try container.decodeIfPresent(String.self, forKey: .scanFormat)
        currentTrigger = try container.decodeIfPresent(String.self, forKey: .currentTrigger)
        mountMatrix = try container.decodeIfPresent(MountMatrix.self, forKey: .mountMatrix)
        mountMatrixProblem = try container.decodeIfPresent(String.self, forKey: .mountMatrixProblem)
        attributeProblem = try container.decodeIfPresent(String.self, forKey: .attributeProblem)
    }
}
