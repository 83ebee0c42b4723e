import ShakeDetection

/// The recall/false-shake trade-off of a tuning run as a self-contained SVG, for
/// `shake tune --report`: false shakes per hour on x, recall on y, one point per budget
/// (the best configuration within it, in sample), the chosen configuration highlighted, the
/// budget as a dashed line, the cross-validated (held-out) figure as a diamond, and the
/// reference configuration's untuned figures (the medium preset, or a base) as a grey square.
/// The false-shake axis runs from 0 to the largest of these figures and of the budgets (5 %
/// more, in round steps); a budget over `budgetAxisFactor` times that is not drawn to scale
/// but named at the frame's lower right end, 'budget 1000000/h: beyond the axis →'.
public struct TradeoffPlot: Sendable {
    public var result: TuningResult
    public var title: String
    /// What the reference configuration is called in the legend and its label: "medium" (the
    /// preset), or "base" for a configuration `shake tune --config` gave.
    public var referenceName = "medium"
    public var width = 900.0
    public var height = 560.0

    public init(result: TuningResult, title: String) {
        self.result = result
        self.title = title
    }

    /// The budget is on the false-shake axis while it is at most this many times the largest
    /// figure drawn (or 1 false shake per hour).
    static let budgetAxisFactor = 2.0

    static let colors = (curve: "#1f77b4", chosen: "#d62728", budget: "#e6550d", validated: "#6a3d9a",
                         reference: "#636363")

    public func svg() -> String {
        var svg = PlotSVG(width: width, height: height)
        let left = 80.0, right = width - 40, top = 96.0, bottom = height - 70
        let points = result.tradeoff.sorted { $0.budget < $1.budget }
        let validated = result.crossValidation?.pooled
        let reference = result.referenceSummary
        var xs = points.compactMap { $0.summary.falsePerHour } + result.tradeoff.map(\.budget)
        // Only what is drawn: a point needs both figures (no recall without labelled shakes).
        if let rate = result.inSample.falsePerHour, result.inSample.recall != nil { xs.append(rate) }
        if let rate = validated?.falsePerHour, validated?.recall != nil { xs.append(rate) }
        if let rate = reference.falsePerHour, reference.recall != nil { xs.append(rate) }
        // The axis follows the figures; the budget joins them unless it would squeeze them into
        // less than half the width (a budget of 10⁶ false shakes per hour), when a note at the
        // frame's right end says where it lies instead of its line.
        let dataMaximum = max(1, xs.max() ?? 1)
        let budgetOnAxis = result.maximumFalsePerHour <= Self.budgetAxisFactor * dataMaximum
        if budgetOnAxis { xs.append(result.maximumFalsePerHour) }
        var ys = points.compactMap { $0.summary.recall }
        if let recall = result.inSample.recall { ys.append(recall) }
        if let recall = validated?.recall { ys.append(recall) }
        if let recall = reference.recall { ys.append(recall) }
        let xScale = PlotScale(0, max(1, (xs.max() ?? 1) * 1.05), count: 8)
        let yScale = PlotScale(max(0, (ys.min() ?? 0) - 0.05), 1, count: 6)
        // 14 px inside the frame's left edge, so a point at 0 false shakes per hour (the chosen
        // one's ring most often) does not cover the recall axis's labels.
        func px(_ value: Double) -> Double {
            left + 14 + (value - xScale.lower) / (xScale.upper - xScale.lower) * (right - left - 14)
        }
        // 14 px of headroom above the top tick, so points at recall 1 stay inside the frame.
        func py(_ value: Double) -> Double {
            bottom - (value - yScale.lower) / (yScale.upper - yScale.lower) * (bottom - top - 14)
        }

        svg.text(title, x: left, y: 28, size: 17, weight: "bold", className: "title")
        let subtitle = "\(result.recordings) recording\(result.recordings == 1 ? "" : "s"), "
            + "\(result.inSample.shakes) labelled shake\(result.inSample.shakes == 1 ? "" : "s"), "
            + FixedDecimals.format(result.inSample.negativeHours, decimals: 2) + " h without shakes; "
            + "\(result.configurationsEvaluated) configurations tried"
        svg.text(subtitle, x: left, y: 48, size: 12, fill: "#555555", className: "subtitle")

        // Legend: one row, each entry as wide as its text (about 6.6 px a character at 12 px).
        svg.open("g", ["class": "legend"])
        var legendX = left
        func legendText(_ text: String, after symbolWidth: Double) {
            svg.text(text, x: legendX + symbolWidth + 8, y: 74)
            legendX += symbolWidth + 8 + Double(text.count) * 6.6 + 22
        }
        svg.line(x1: legendX, y1: 70, x2: legendX + 22, y2: 70, stroke: Self.colors.curve, width: 2)
        svg.raw("circle", [("cx", PlotSVG.n(legendX + 11)), ("cy", "70"), ("r", "4"), ("fill", Self.colors.curve)])
        legendText("best recall within each budget (in sample)", after: 22)
        svg.raw("circle", [("cx", PlotSVG.n(legendX + 8)), ("cy", "70"), ("r", "7"), ("fill", "none"),
                           ("stroke", Self.colors.chosen), ("stroke-width", "3")])
        legendText("chosen", after: 16)
        svg.line(x1: legendX, y1: 70, x2: legendX + 22, y2: 70, stroke: Self.colors.budget, width: 1.5, dash: "7 4")
        legendText("budget", after: 22)
        if validated != nil {
            svg.raw("path", [("d", diamond(legendX + 6, 70, 6)), ("fill", Self.colors.validated)])
            legendText("cross-validated", after: 12)
        }
        if reference.falsePerHour != nil && reference.recall != nil {
            svg.raw("rect", [("x", PlotSVG.n(legendX + 1)), ("y", "65"), ("width", "10"), ("height", "10"),
                             ("fill", Self.colors.reference)])
            legendText("\(referenceName), not tuned", after: 12)
        }
        svg.close("g")

        // Grid and axes.
        for tick in yScale.ticks {
            svg.line(x1: left, y1: py(tick), x2: right, y2: py(tick), stroke: "#e4e4e4", className: "grid")
            svg.text(yScale.label(tick), x: left - 8, y: py(tick) + 4, anchor: "end", size: 11, fill: "#444444")
        }
        for tick in xScale.ticks {
            svg.line(x1: px(tick), y1: top, x2: px(tick), y2: bottom, stroke: "#eeeeee", className: "grid")
            svg.text(xScale.label(tick), x: px(tick), y: bottom + 18, anchor: "middle", size: 11, fill: "#444444")
        }
        svg.raw("rect", [("x", PlotSVG.n(left)), ("y", PlotSVG.n(top)), ("width", PlotSVG.n(right - left)),
                         ("height", PlotSVG.n(bottom - top)), ("fill", "none"), ("stroke", "#888888"), ("class", "frame")])
        svg.text("false shakes per hour (of time without shakes)", x: (left + right) / 2, y: bottom + 44,
                 anchor: "middle", size: 13, className: "axis-title")
        svg.text("recall (share of labelled shakes detected)", x: 22, y: (top + bottom) / 2, anchor: "middle",
                 size: 13, rotate: -90, className: "axis-title")

        // The budget: its line, or where it lies beyond the axis.
        if budgetOnAxis {
            let budgetX = px(result.maximumFalsePerHour)
            svg.line(x1: budgetX, y1: top, x2: budgetX, y2: bottom, stroke: Self.colors.budget, width: 1.5, dash: "7 4",
                     className: "budget-line")
            svg.text("budget \(PlotSVG.n(result.maximumFalsePerHour))/h", x: budgetX + 5, y: bottom - 8, size: 11,
                     fill: Self.colors.budget)
        } else {
            svg.text("budget \(PlotSVG.n(result.maximumFalsePerHour))/h: beyond the axis →", x: right - 6, y: bottom - 8,
                     anchor: "end", size: 11, fill: Self.colors.budget, className: "budget-off-axis", halo: true)
        }

        // The curve: one point per budget, joined in budget order.
        let drawn = points.filter { $0.summary.falsePerHour != nil && $0.summary.recall != nil }
        if drawn.count > 1 {
            let d = drawn.enumerated().map { index, point in
                (index == 0 ? "M" : "L") + PlotSVG.n(px(point.summary.falsePerHour!)) + "," + PlotSVG.n(py(point.summary.recall!))
            }.joined(separator: " ")
            svg.raw("path", [("d", d), ("fill", "none"), ("stroke", Self.colors.curve), ("stroke-width", "2"),
                             ("class", "curve")])
        }
        // Several budgets often share one configuration: one label per position, naming them all.
        var groups: [(x: Double, y: Double, budgets: [Double], recall: Double)] = []
        for point in drawn {
            let x = px(point.summary.falsePerHour!), y = py(point.summary.recall!)
            svg.raw("circle", [("cx", PlotSVG.n(x)), ("cy", PlotSVG.n(y)), ("r", "4.5"),
                               ("fill", point.metBudget ? Self.colors.curve : "#ffffff"),
                               ("stroke", Self.colors.curve), ("stroke-width", "1.5"), ("class", "tradeoff-point")])
            if let index = groups.firstIndex(where: { abs($0.x - x) < 1 && abs($0.y - y) < 1 }) {
                groups[index].budgets.append(point.budget)
            } else {
                groups.append((x, y, [point.budget], point.summary.recall!))
            }
        }
        // Labels never overlap: a label that would cover an earlier one moves down a line.
        var boxes: [(x: Double, y: Double, width: Double)] = []
        for group in groups {
            let budgets = group.budgets.count == 1 ? PlotSVG.n(group.budgets[0])
                : PlotSVG.n(group.budgets.first!) + " to " + PlotSVG.n(group.budgets.last!)
            let text = "budget ≤ \(budgets)/h: recall " + FixedDecimals.format(group.recall, decimals: 3)
            let width = Double(text.count) * 6.3
            let x = min(group.x + 8, right - width - 4)
            var y = group.y + 18
            while boxes.contains(where: { abs($0.y - y) < 14 && x < $0.x + $0.width && $0.x < x + width }) { y += 14 }
            boxes.append((x, y, width))
            svg.text(text, x: x, y: y, size: 11, fill: "#333333", halo: true)
        }

        // The chosen configuration.
        if let rate = result.inSample.falsePerHour, let recall = result.inSample.recall {
            let x = px(rate), y = py(recall)
            svg.raw("circle", [("cx", PlotSVG.n(x)), ("cy", PlotSVG.n(y)), ("r", "10"), ("fill", "none"),
                               ("stroke", Self.colors.chosen), ("stroke-width", "3"), ("class", "chosen-point")])
            let text = "chosen: recall " + FixedDecimals.format(recall, decimals: 3) + ", " + FixedDecimals.format(rate, decimals: 2) + " false/h"
            let labelX = min(x + 14, right - 250)
            var labelY = y - 14 < top + 12 ? y + 18 : y - 14
            while boxes.contains(where: { abs($0.y - labelY) < 14 && labelX < $0.x + $0.width && $0.x < labelX + 250 }) {
                labelY += 14
            }
            boxes.append((labelX, labelY, 250))
            svg.text(text, x: labelX, y: labelY, size: 12, weight: "bold", fill: Self.colors.chosen, halo: true)
        }
        if let validated, let rate = validated.falsePerHour, let recall = validated.recall {
            let x = px(rate), y = py(recall)
            svg.raw("path", [("d", diamond(x, y, 7)), ("fill", Self.colors.validated), ("class", "validated-point")])
            let text = "cross-validated: recall " + FixedDecimals.format(recall, decimals: 3) + ", "
                + FixedDecimals.format(rate, decimals: 2) + " false/h"
            let labelX = min(x + 12, right - 290)
            var labelY = y + 20
            while boxes.contains(where: { abs($0.y - labelY) < 14 && labelX < $0.x + $0.width && $0.x < labelX + 290 }) {
                labelY += 14
            }
            boxes.append((labelX, labelY, 290))
            svg.text(text, x: labelX, y: labelY, size: 12, fill: Self.colors.validated, halo: true)
        }
        if result.inSample.shakes == 0 {
            svg.text("no labelled shakes: recall cannot be measured, so there is no curve", x: (left + right) / 2,
                     y: (top + bottom) / 2, anchor: "middle", size: 14, fill: "#555555", className: "no-shakes")
        }
        // The reference, not tuned: what the cross-validated figures should beat.
        if let rate = reference.falsePerHour, let recall = reference.recall {
            let x = px(rate), y = py(recall)
            svg.raw("rect", [("x", PlotSVG.n(x - 5.5)), ("y", PlotSVG.n(y - 5.5)), ("width", "11"), ("height", "11"),
                             ("fill", Self.colors.reference), ("class", "reference-point")])
            let text = "\(referenceName), not tuned: recall " + FixedDecimals.format(recall, decimals: 3) + ", "
                + FixedDecimals.format(rate, decimals: 2) + " false/h"
            let width = Double(text.count) * 6.6
            let labelX = min(x + 12, right - width - 4)
            var labelY = y - 10 < top + 12 ? y + 20 : y - 10
            while boxes.contains(where: { abs($0.y - labelY) < 14 && labelX < $0.x + $0.width && $0.x < labelX + width }) {
                labelY += 14
            }
            svg.text(text, x: labelX, y: labelY, size: 12, fill: Self.colors.reference, halo: true)
        }
        return svg.document(title: title)
    }

    private func diamond(_ x: Double, _ y: Double, _ r: Double) -> String {
        "M\(PlotSVG.n(x)),\(PlotSVG.n(y - r)) L\(PlotSVG.n(x + r)),\(PlotSVG.n(y)) L\(PlotSVG.n(x)),\(PlotSVG.n(y + r)) "
            + "L\(PlotSVG.n(x - r)),\(PlotSVG.n(y)) Z"
    }
}
