/// A 3×3 rotation from the sensor's axes to the device's axes, as IIO publishes it in
/// `in_accel_mount_matrix` or `in_mount_matrix`: `"x1, y1, z1; x2, y2, z2; x3, y3, z3"`, rows
/// separated by `;`.
///
/// Formula: `device = M · sensor`, i.e. `x' = m11·x + m12·y + m13·z` and so on.
public struct MountMatrix: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Row-major: `rows[0]` gives the device's x.
    public var rows: [[Double]]

    /// The identity: sensor axes are the device's axes.
    public static let identity = MountMatrix(uncheckedRows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    init(uncheckedRows rows: [[Double]]) { self.rows = rows }

    /// Parses the IIO text form `"x, y, z; x, y, z; x, y, z"`.
    /// - Throws: ``IIOError`` (`EINVAL`, kind `.badValue`) naming `attribute` when the text is not
    ///   nine finite numbers.
    public init(parsing text: String, device: String? = nil, attribute: String = "mount_matrix") throws(IIOError) {
        let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
        let rows = rowTexts.map { row in
            row.split(separator: ",", omittingEmptySubsequences: false).map {
                Double(String($0).trimmingWhitespace())
            }
        }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }),
              rows.allSatisfy({ $0.allSatisfy { $0?.isFinite ?? false } }) else {
            throw IIOError(
                code: .invalidArgument, function: "mount matrix", device: device, attribute: attribute,
                detail: "'\(text)' is not a mount matrix: expected 9 numbers as \"x, y, z; x, y, z; x, y, z\"",
                kind: .badValue)
        }
        self.rows = rows.map { $0.map { $0! } }
    }

    /// Applies the matrix to a sensor-frame vector; units are kept (m/s²).
    @inlinable
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double) {
        (rows[0][0] * x + rows[0][1] * y + rows[0][2] * z,
         rows[1][0] * x + rows[1][1] * y + rows[1][2] * z,
         rows[2][0] * x + rows[2][1] * y + rows[2][2] * z)
    }

    public var isIdentity: Bool { self == .identity }

    /// The determinant: ±1 for a rotation or reflection; 0 when the matrix flattens space.
    public var determinant: Double {
        let m = rows
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// Why this cannot orient samples, or nil: a matrix whose determinant is 0 (all zeros, a
    /// row of zeros, two rows alike) maps every sample into a plane or onto a line or point,
    /// losing axes for good; one whose determinant overflows has absurd entries. Tolerance:
    /// |det| < 1e-6 (a mount matrix has |det| = 1).
    public var singularityProblem: String? {
        let det = determinant
        let example = "a mount matrix is a rotation, e.g. \"1, 0, 0; 0, 1, 0; 0, 0, 1\""
        if !det.isFinite { return "its numbers are too large (the determinant is not finite); \(example)" }
        guard abs(det) < 1e-6 else { return nil }
        return "the matrix is singular (determinant \(det)): it would flatten the samples and lose axes; \(example)"
    }

    /// Why this cannot orient samples, or nil: `singularityProblem`, or rows that are not unit
    /// vectors at right angles (M·Mᵀ ≠ I by more than 0.01 in an entry). A mount matrix turns
    /// the sensor's axes into the device's; one that also scales (`"2, 0, 0; …"`) or shears them
    /// would change every acceleration, and the thresholds with it. A reflection (determinant
    /// −1, a mirrored axis) is allowed: some boards' matrices have one.
    public var rotationProblem: String? {
        if let problem = singularityProblem { return problem }
        var worst = 0.0
        for i in 0..<3 {
            for j in 0..<3 {
                let dot = rows[i][0] * rows[j][0] + rows[i][1] * rows[j][1] + rows[i][2] * rows[j][2]
                worst = max(worst, abs(dot - (i == j ? 1 : 0)))
            }
        }
        guard worst > 0.01 else { return nil }
        return "the matrix is not a rotation (its rows must be unit vectors at right angles; they are off by up to "
            + "\(Self.format((worst * 1000).rounded() / 1000))): it would scale or shear every acceleration; a mount "
            + "matrix is a rotation, e.g. \"1, 0, 0; 0, 1, 0; 0, 0, 1\""
    }

    /// The IIO text form, e.g. `"1, 0, 0; 0, 1, 0; 0, 0, 1"`.
    public var description: String {
        rows.map { row in row.map(Self.format).joined(separator: ", ") }.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
