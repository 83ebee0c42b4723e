/// A symmetric, positive semi-definite 3×3 second-moment (or covariance) matrix of acceleration,
/// (m/s²)².
struct SecondMoment: Sendable, Hashable {
    var xx, yy, zz, xy, xz, yz: Double

    /// How far the motion is from a straight line: `√(λ₂/λ₁)` for the eigenvalues
    /// λ₁ ≥ λ₂ ≥ λ₃ ≥ 0. 0 for motion along one line, 1 for a circle (or a sphere).
    /// 1 for the zero matrix (no motion is not linear motion).
    ///
    /// λ₁ is the largest root of the characteristic polynomial
    /// `p(λ) = λ³ − I₁λ² + I₂λ − I₃` (trace, sum of principal minors, determinant), found by Newton's
    /// method from `I₁ ≥ λ₁`, where p is increasing and convex, so the iteration descends
    /// monotonically. λ₂ and λ₃ are then the roots of `λ² − (I₁ − λ₁)λ + (I₂ − λ₁(I₁ − λ₁))`.
    /// - Complexity: O(1) (at most 40 Newton steps; typically under 10).
    var linearity: Double {
        let i1 = xx + yy + zz
        guard i1 > 0 else { return 1 }
        let i2 = xx * yy + xx * zz + yy * zz - xy * xy - xz * xz - yz * yz
        let i3 = xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz)
        var lambda = i1
        for _ in 0..<40 {
            let p = ((lambda - i1) * lambda + i2) * lambda - i3
            let dp = (3 * lambda - 2 * i1) * lambda + i2
            guard dp > 0 else { break }
            let step = p / dp
            lambda -= step
            if step <= 1e-12 * i1 { break }
        }
        let rest = max(i1 - lambda, 0)                 // λ₂ + λ₃
        let product = max(i2 - lambda * rest, 0)       // λ₂ · λ₃
        let discriminant = max(rest * rest - 4 * product, 0)
        let lambda2 = (rest + discriminant.squareRoot()) / 2
        guard lambda > 0 else { return 1 }
        return min(max(lambda2 / lambda, 0), 1).squareRoot()
    }
}
