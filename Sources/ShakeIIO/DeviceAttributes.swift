/// Reads an accelerometer's attributes wherever the driver put them: on the device
/// (`sampling_frequency`) or shared by the accel channels (`in_accel_sampling_frequency`,
/// which libiio lists as the channel attribute `sampling_frequency`).
struct DeviceAttributes {
    let device: OpaquePointer
    let axes: AccelerometerChannels
    /// The device's name (or id) for error messages.
    let label: String

    init(device: OpaquePointer, axes: AccelerometerChannels) {
        self.device = device
        self.axes = axes
        label = LibIIO.name(ofDevice: device) ?? LibIIO.id(ofDevice: device)
    }

    var deviceAttributeNames: Set<String> { Set(LibIIO.attributeNames(ofDevice: device)) }

    /// The text of a device attribute, or of the x channel's attribute of the same name; nil if neither exists.
    func text(_ attribute: String) throws(IIOError) -> (text: String, onChannel: Bool)? {
        if deviceAttributeNames.contains(attribute) {
            return (try LibIIO.readAttribute(device, attribute, deviceLabel: label), false)
        }
        if LibIIO.hasAttribute(axes.x, attribute) {
            return (try LibIIO.readChannelAttribute(axes.x, attribute, deviceLabel: label), true)
        }
        return nil
    }

    /// A numeric channel attribute of `accel_x` (`scale`, `offset`); nil when absent.
    func number(channelAttribute attribute: String) throws(IIOError) -> Double? {
        try number(channelAttribute: attribute, of: axes.x)
    }

    /// A numeric attribute of the accel channel `channel`: its own (`in_accel_y_scale`) or the
    /// one the axes share (`in_accel_scale`), which libiio lists alike; nil when absent.
    func number(channelAttribute attribute: String, of channel: OpaquePointer) throws(IIOError) -> Double? {
        guard LibIIO.hasAttribute(channel, attribute) else { return nil }
        let text = try LibIIO.readChannelAttribute(channel, attribute, deviceLabel: label)
        guard let value = Double(text), value.isFinite else {
            throw IIOError(code: .invalidArgument, function: "iio_channel_attr_read", device: label,
                           channel: LibIIO.id(ofChannel: channel), attribute: attribute,
                           detail: "'\(text)' is not a number", kind: .badValue)
        }
        return value
    }

    /// `sampling_frequency` in hertz, nil when the device has none.
    /// - Throws: ``IIOError`` of kind `.badValue`, naming the attribute and its text, when it
    ///   holds no finite number (`100.000 Hz`, `abc`).
    func samplingFrequency() throws(IIOError) -> Double? {
        guard let (text, onChannel) = try text("sampling_frequency") else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw IIOError(code: .invalidArgument, function: onChannel ? "iio_channel_attr_read" : "iio_device_attr_read",
                           device: label, channel: onChannel ? LibIIO.id(ofChannel: axes.x) : nil,
                           attribute: "sampling_frequency", detail: "'\(text)' is not a number", kind: .badValue)
        }
        return value
    }

    func availableSamplingFrequencies() throws(IIOError) -> [Double] {
        guard let (text, onChannel) = try text("sampling_frequency_available") else { return [] }
        guard let rates = SamplingFrequencies.parse(text) else {
            throw IIOError(code: .invalidArgument, function: onChannel ? "iio_channel_attr_read" : "iio_device_attr_read",
                           device: label, channel: onChannel ? LibIIO.id(ofChannel: axes.x) : nil,
                           attribute: "sampling_frequency_available",
                           detail: "'\(text)' is not a list of numbers (rates in Hz) or a range [low step high]",
                           kind: .badValue)
        }
        return rates
    }

    /// `in_accel_scale_available` (which libiio lists as the accel channels' `scale_available`):
    /// the scales offered, m/s² per LSB, ascending; empty when not published.
    /// - Throws: ``IIOError`` of kind `.badValue`, naming the device, attribute and its text, when
    ///   it holds anything but positive numbers (`2g 4g 8g`).
    func availableScales() throws(IIOError) -> [Double] {
        guard let (text, onChannel) = try text("scale_available") else { return [] }
        guard let scales = AvailableScales.parse(text) else {
            throw IIOError(code: .invalidArgument, function: onChannel ? "iio_channel_attr_read" : "iio_device_attr_read",
                           device: label, channel: onChannel ? LibIIO.id(ofChannel: axes.x) : nil,
                           attribute: "scale_available", detail: "'\(text)' is not a list of numbers (scales in m/s² per LSB)",
                           kind: .badValue)
        }
        return scales
    }

    /// Writes `sampling_frequency` (hertz) where it lives.
    func setSamplingFrequency(_ hertz: Double) throws(IIOError) {
        let value = hertz == hertz.rounded() ? String(Int64(hertz)) : String(hertz)
        if deviceAttributeNames.contains("sampling_frequency") {
            try LibIIO.writeAttribute(device, "sampling_frequency", value, deviceLabel: label)
        } else if LibIIO.hasAttribute(axes.x, "sampling_frequency") {
            try LibIIO.writeChannelAttribute(axes.x, "sampling_frequency", value, deviceLabel: label)
        }
    }

    /// The device's mount matrix, wherever the driver published it; nil when it has none.
    ///
    /// The accelerometer's own matrix wins over one shared by every input channel:
    /// 1. `in_accel_mount_matrix`: libiio 0.24 lists it as the accel channels' attribute
    ///    `mount_matrix`;
    /// 2. `in_mount_matrix` (shared by all input channels, as inv_mpu6050 publishes it): libiio
    ///    0.24 lists it as an input channel `mount` with the attribute `matrix`, not as a device
    ///    attribute;
    /// 3. a device attribute `mount_matrix` (or one of the above, should a backend list it so).
    func mountMatrix() throws(IIOError) -> MountMatrix? {
        guard let (text, attribute) = try mountMatrixText() else { return nil }
        let matrix = try MountMatrix(parsing: text, device: label, attribute: attribute)
        // The device's own matrix is checked as an option's is: a zero or scaling matrix from a
        // wrong device tree would otherwise silence or distort every sample.
        if let problem = matrix.rotationProblem {
            throw IIOError(code: .invalidArgument, function: "mount matrix", device: label, attribute: attribute,
                           detail: "'\(text)': \(problem)", kind: .badValue)
        }
        return matrix
    }

    /// The device's mount matrix as text, and the attribute it came from, or nil when it has none.
    private func mountMatrixText() throws(IIOError) -> (text: String, attribute: String)? {
        if LibIIO.hasAttribute(axes.x, "mount_matrix") {
            return (try LibIIO.readChannelAttribute(axes.x, "mount_matrix", deviceLabel: label), "in_accel_mount_matrix")
        }
        let deviceAttributes = deviceAttributeNames
        if deviceAttributes.contains("in_accel_mount_matrix") {
            return (try LibIIO.readAttribute(device, "in_accel_mount_matrix", deviceLabel: label), "in_accel_mount_matrix")
        }
        if let shared = LibIIO.channels(device).first(where: {
            !LibIIO.isOutput($0) && LibIIO.id(ofChannel: $0) == "mount" && LibIIO.hasAttribute($0, "matrix")
        }) {
            return (try LibIIO.readChannelAttribute(shared, "matrix", deviceLabel: label), "in_mount_matrix")
        }
        for attribute in ["in_mount_matrix", "mount_matrix"] where deviceAttributes.contains(attribute) {
            return (try LibIIO.readAttribute(device, attribute, deviceLabel: label), attribute)
        }
        return nil
    }
}
