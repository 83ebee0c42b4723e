/// The box a plot label covers, in pixels (y grows downwards), halo included: what the plot
/// keeps clear of its curves when it places a threshold's label.
struct PlotLabelBox: Hashable {
    var minX: Double
    var maxX: Double
    var minY: Double
    var maxY: Double

    /// Average advance of a character, in em. In DejaVu Sans, the plots' first font, the
    /// threshold labels average about 0.52 em a character ('release 5 m/s²' is 7.2 em wide);
    /// 0.62 em leaves room for a wider fallback font.
    static let characterWidth = 0.62
    /// Height above the baseline (capitals, digits, ², with 0.8 em) and below it (0.25 em), in em.
    static let ascent = 0.8
    static let descent = 0.25
    /// The white outline drawn around a label's glyphs, px on each side.
    static let halo = 1.5

    init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The box of `text` in a font of `size` px, drawn at `x` with SVG's `text-anchor` `anchor`
    /// ("start", "middle" or "end") on the baseline `baseline`.
    init(text: String, size: Double, x: Double, baseline: Double, anchor: String) {
        let width = Double(text.count) * Self.characterWidth * size
        let start = switch anchor {
        case "end": x - width
        case "middle": x - width / 2
        default: x
        }
        self.init(minX: start - Self.halo, maxX: start + width + Self.halo,
                  minY: baseline - Self.ascent * size - Self.halo, maxY: baseline + Self.descent * size + Self.halo)
    }

    func intersects(_ other: PlotLabelBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    func contains(_ other: PlotLabelBox) -> Bool {
        minX <= other.minX && other.maxX <= maxX && minY <= other.minY && other.maxY <= maxY
    }

    /// Whether the polyline through `points` (in order of x, as the plot's curves are drawn)
    /// passes through the box: a point inside it, or a segment crossing it.
    func isCrossed(byPolyline points: [(x: Double, y: Double)]) -> Bool {
        crossings(byPolyline: points, atMost: 1) > 0
    }

    /// How many segments of the polyline through `points` (in order of x) pass through the box,
    /// counting no further than `limit`.
    func crossings(byPolyline points: [(x: Double, y: Double)], atMost limit: Int) -> Int {
        guard !points.isEmpty, limit > 0 else { return 0 }
        var count = 0
        // The first point at or after the box's left edge; the segment into it may cross too.
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].x < minX { low = middle + 1 } else { high = middle }
        }
        var index = max(0, low - 1)
        while index < points.count {
            let a = points[index]
            if a.x > maxX { break }
            if index + 1 == points.count {
                if a.x >= minX && a.y >= minY && a.y <= maxY { count += 1 }
                break
            }
            let b = points[index + 1]
            let from = max(min(a.x, b.x), minX), to = min(max(a.x, b.x), maxX)
            if from <= to {
                let y1: Double, y2: Double
                if a.x == b.x {
                    (y1, y2) = (a.y, b.y)
                } else {
                    let slope = (b.y - a.y) / (b.x - a.x)
                    (y1, y2) = (a.y + slope * (from - a.x), a.y + slope * (to - a.x))
                }
                if max(y1, y2) >= minY && min(y1, y2) <= maxY {
                    count += 1
                    if count >= limit { return count }
                }
            }
            index += 1
        }
        return count
    }
}
