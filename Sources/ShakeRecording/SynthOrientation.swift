#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a synthesized device is turned in the world, as roll, pitch and yaw in degrees.
///
/// The world frame has x forward (the direction of walking), y to the left and z up. The device
/// frame is the accelerometer's own: x to the right of the screen, y to its top, z out of it.
/// The device-to-world rotation is `Rz(yaw) · Ry(pitch) · Rx(roll)`, and a still device reads
/// gravity as `Rᵀ · (0, 0, g)`: `.flat` reads `(0, 0, 9.81)` m/s², `.portrait` `(0, 9.81, 0)`.
public struct DeviceOrientation: Sendable, Hashable, Codable {
    /// Rotation about the device's x axis, degrees. 90° stands the device upright (top up).
    public var rollDegrees: Double
    /// Rotation about the y axis, degrees. −90° stands the device on its left edge (x up).
    public var pitchDegrees: Double
    /// Rotation about the world's vertical axis, degrees.
    public var yawDegrees: Double

    public init(rollDegrees: Double = 0, pitchDegrees: Double = 0, yawDegrees: Double = 0) {
        self.rollDegrees = rollDegrees
        self.pitchDegrees = pitchDegrees
        self.yawDegrees = yawDegrees
    }

    /// Lying face up on a table: reads `(0, 0, +g)`.
    public static let flat = DeviceOrientation()
    /// Lying face down: reads `(0, 0, −g)`.
    public static let faceDown = DeviceOrientation(rollDegrees: 180)
    /// Upright, top up: reads `(0, +g, 0)`.
    public static let portrait = DeviceOrientation(rollDegrees: 90)
    /// On its left edge, x up: reads `(+g, 0, 0)`.
    public static let landscape = DeviceOrientation(pitchDegrees: -90)
    /// Held in front of the face, screen tilted 40° back from upright: reads about `(0, 0.77g, 0.64g)`.
    public static let handheld = DeviceOrientation(rollDegrees: 50, yawDegrees: 5)
    /// Upside down in a front trouser pocket, screen towards the thigh, tilted: mostly `(0, −g, 0)`.
    public static let pocket = DeviceOrientation(rollDegrees: -100, pitchDegrees: 12, yawDegrees: 80)
    /// Lying on its side at the bottom of a bag, tilted.
    public static let bag = DeviceOrientation(rollDegrees: 25, pitchDegrees: 65, yawDegrees: 30)

    /// The device-to-world rotation matrix.
    var rotation: SynthMatrix {
        let degrees = Double.pi / 180
        let rx = SynthMatrix.rotation(axis: SIMD3(1, 0, 0), radians: rollDegrees * degrees)
        let ry = SynthMatrix.rotation(axis: SIMD3(0, 1, 0), radians: pitchDegrees * degrees)
        let rz = SynthMatrix.rotation(axis: SIMD3(0, 0, 1), radians: yawDegrees * degrees)
        return rz * ry * rx
    }

    /// The orientation a fraction `fraction` (0…1) of the way from `self` to `other`, by
    /// interpolating each angle.
    func interpolated(to other: DeviceOrientation, fraction: Double) -> DeviceOrientation {
        DeviceOrientation(
            rollDegrees: rollDegrees + (other.rollDegrees - rollDegrees) * fraction,
            pitchDegrees: pitchDegrees + (other.pitchDegrees - pitchDegrees) * fraction,
            yawDegrees: yawDegrees + (other.yawDegrees - yawDegrees) * fraction)
    }
}

/// A 3×3 matrix stored by rows, for the synthesizer's rotations.
struct SynthMatrix: Sendable, Hashable {
    var row0: SIMD3<Double>
    var row1: SIMD3<Double>
    var row2: SIMD3<Double>

    /// Rotation by `radians` about the unit vector `axis` (Rodrigues' formula).
    static func rotation(axis: SIMD3<Double>, radians: Double) -> SynthMatrix {
        let c = cos(radians)
        let s = sin(radians)
        let t = 1 - c
        let (x, y, z) = (axis.x, axis.y, axis.z)
        return SynthMatrix(
            row0: SIMD3(t * x * x + c, t * x * y - s * z, t * x * z + s * y),
            row1: SIMD3(t * x * y + s * z, t * y * y + c, t * y * z - s * x),
            row2: SIMD3(t * x * z - s * y, t * y * z + s * x, t * z * z + c))
    }

    /// `selfᵀ · vector`: a world vector seen in the device frame when `self` is device-to-world.
    func transposeApplied(to vector: SIMD3<Double>) -> SIMD3<Double> {
        row0 * vector.x + row1 * vector.y + row2 * vector.z
    }

    static func * (lhs: SynthMatrix, rhs: SynthMatrix) -> SynthMatrix {
        let columns = (
            SIMD3(rhs.row0.x, rhs.row1.x, rhs.row2.x),
            SIMD3(rhs.row0.y, rhs.row1.y, rhs.row2.y),
            SIMD3(rhs.row0.z, rhs.row1.z, rhs.row2.z))
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(
                SynthVector.dot(r, columns.0), SynthVector.dot(r, columns.1),
                SynthVector.dot(r, columns.2))
        }
        return SynthMatrix(row0: row(lhs.row0), row1: row(lhs.row1), row2: row(lhs.row2))
    }
}

/// Vector helpers for the synthesizer's internal geometry.
enum SynthVector {
    /// Dot product.
    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        (a * b).sum()
    }

    /// Cross product.
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Euclidean length.
    static func length(_ a: SIMD3<Double>) -> Double {
        dot(a, a).squareRoot()
    }

    /// Two unit vectors perpendicular to the unit vector `a` and to each other.
    static func perpendiculars(of a: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>) {
        let helper: SIMD3<Double> = abs(a.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
        let first = cross(a, helper)
        let p1 = first / length(first)
        return (p1, cross(a, p1))
    }
}
