/// The three acceleration input channels of one IIO device, plus its timestamp channel.
/// Borrowed pointers: valid while the owning ``IIOContext`` lives.
struct AccelerometerChannels {
    var x: OpaquePointer
    var y: OpaquePointer
    var z: OpaquePointer
    var timestamp: OpaquePointer?

    var axes: [OpaquePointer] { [x, y, z] }

    /// nil unless the device has `accel_x`, `accel_y` and `accel_z` input channels.
    init?(device: OpaquePointer) {
        var byID: [String: OpaquePointer] = [:]
        for channel in LibIIO.channels(device) where !LibIIO.isOutput(channel) {
            byID[LibIIO.id(ofChannel: channel)] = channel
        }
        guard let x = byID["accel_x"], let y = byID["accel_y"], let z = byID["accel_z"] else { return nil }
        self.x = x
        self.y = y
        self.z = z
        timestamp = byID["timestamp"].flatMap { LibIIO.isScanElement($0) ? $0 : nil }
    }

    /// True when all three axes are scan elements, i.e. can be read through a buffer.
    var areScanElements: Bool { axes.allSatisfy(LibIIO.isScanElement) }
}
