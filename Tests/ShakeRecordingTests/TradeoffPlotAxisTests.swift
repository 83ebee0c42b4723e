import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

/// The false-shake axis of `shake tune --report`, as read from the SVG: it follows the figures
/// drawn, takes in a budget near them, and names one far beyond them instead of squeezing every
/// point against 0.
@Suite struct TradeoffPlotAxisTests {
    @Test(arguments: [0.5, 40, 1_000_000])
    func axisFollowsTheFiguresAndSaysWhereTheBudgetIs(budget: Double) throws {
        var options = TuningOptions()
        options.axes = [PlantedMotion.thresholdAxis]
        options.maximumFalsePerHour = budget
        var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options)
        let result = try tuner.run()
        let svg = try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg()))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)

        let frame = try #require(svg.withClass("frame").first)
        let left = try #require(frame["x"].flatMap(Double.init))
        let right = left + (try #require(frame["width"].flatMap(Double.init)))
        let bottom = (try #require(frame["y"].flatMap(Double.init))) + (try #require(frame["height"].flatMap(Double.init)))
        // The false-shake ticks: the labels under the frame.
        let ticks = texts.filter { $0.0["y"].flatMap(Double.init) == bottom + 18 }.compactMap { Double($0.1) }
        let largestTick = try #require(ticks.max())

        // Every point drawn lies in the frame.
        var xs = svg.withClass("tradeoff-point").compactMap { $0["cx"].flatMap(Double.init) }
        xs += svg.withClass("chosen-point").compactMap { $0["cx"].flatMap(Double.init) }
        xs += svg.withClass("reference-point").compactMap { $0["x"].flatMap(Double.init).map { $0 + 5.5 } }
        xs += svg.withClass("validated-point").compactMap { $0["d"]?.dropFirst().split(separator: ",").first.flatMap { Double($0) } }
        #expect(xs.count >= 3)
        for x in xs { #expect(x >= left && x <= right, "a point at x \(x), frame \(left) to \(right)") }

        // The largest figure drawn, false shakes per hour.
        var figures = result.tradeoff.compactMap(\.summary.falsePerHour) + result.tradeoff.map(\.budget)
        figures += [result.inSample.falsePerHour, result.crossValidation?.pooled.falsePerHour,
                    result.referenceSummary.falsePerHour].compactMap { $0 }
        let largest = max(1, figures.max() ?? 1)
        let line = svg.withClass("budget-line").first
        let note = texts.first { $0.0["class"] == "budget-off-axis" }?.1
        if budget <= 2 * largest {
            let x = try #require(line?["x1"].flatMap(Double.init))
            #expect(x >= left && x <= right)
            #expect(largestTick >= budget)
            #expect(note == nil)
        } else {
            // Not drawn to scale: the axis stays the figures', and a note names the budget.
            #expect(line == nil)
            #expect(largestTick <= 2 * largest, "ticks to \(largestTick) for figures to \(largest)")
            #expect(note == "budget \(PlotSVG.n(budget))/h: beyond the axis →")
        }
    }
}
