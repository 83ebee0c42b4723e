import ShakeIIO
import Testing
@testable import ShakeCLI

/// The pieces of the summary `live` and `record` print at the end of a read (outages, spread and
/// discarded times, a clock that went back, a rate other than the device's), each in its one and
/// many forms and left out when nothing happened, and the line they print while waiting for a
/// device with --reconnect. The emulator tests see them in whole runs, mostly in one form.
@Suite struct ReadSummaryTextTests {
    /// A read in which nothing went wrong adds nothing to the summary.
    @Test func nothingIsSaidOfAReadThatWentWell() {
        let statistics = AccelerometerReadStatistics()
        #expect(outageText(statistics).isEmpty)
        #expect(spreadText(statistics).isEmpty)
        #expect(discardedText(statistics, keptBatchTimes: true).isEmpty)
        #expect(clockText(statistics).isEmpty)
        #expect(measuredRateText(statistics, reported: 100).isEmpty)
    }

    /// What happened in a read, and the summary pieces it gives: outages, spread and discarded
    /// times, clock steps back.
    struct Happened: Sendable, CustomTestStringConvertible {
        var outages: Int, outageSeconds: Double, spread: Int, discarded: Int, keptBatchTimes: Bool, clockSteps: Int
        var says: [String]
        var testDescription: String { outages == 1 ? "one of each" : "several of each" }
    }

    /// One of each is said in the singular, several in the plural; discarded samples with
    /// --keep-batch-times also say what to leave out.
    @Test(arguments: [
        Happened(outages: 1, outageSeconds: 1.64, spread: 1, discarded: 1, keptBatchTimes: false, clockSteps: 1, says: [
            "; 1 outage (1.6 s without the device)",
            "; 1 sample time spread over its FIFO batches (the driver stamps a batch once, or as it reads it out)",
            "; 1 sample discarded: its time did not increase",
            "; the device's clock went back once (the times after follow on)",
        ]),
        Happened(outages: 2, outageSeconds: 3.31, spread: 1788, discarded: 3, keptBatchTimes: true, clockSteps: 2, says: [
            "; 2 outages (3.3 s without the device)",
            "; 1788 sample times spread over their FIFO batches (the driver stamps a batch once, or as it reads it out)",
            "; 3 samples discarded: their time did not increase (a FIFO batch stamped once? leave out "
                + "--keep-batch-times to spread them)",
            "; the device's clock went back 2 times (the times after follow on)",
        ]),
    ])
    func eachPieceIsSaidInItsOneAndManyForms(_ happened: Happened) {
        var statistics = AccelerometerReadStatistics()
        statistics.outages = happened.outages
        statistics.outageSeconds = happened.outageSeconds
        statistics.spreadSamples = happened.spread
        statistics.outOfOrderSamples = happened.discarded
        statistics.clockStepsBack = happened.clockSteps
        let said = [outageText(statistics), spreadText(statistics),
                    discardedText(statistics, keptBatchTimes: happened.keptBatchTimes), clockText(statistics)]
        #expect(said == happened.says)
    }

    /// A rate measured off the device's is said in whole hertz, the device's as it reports it.
    @Test(arguments: [(99.6, 400.0, "; the device delivers about 100 Hz, not the 400 Hz it reports (drops counted at 100 Hz)"),
                      (25.2, 12.5, "; the device delivers about 25 Hz, not the 12.5 Hz it reports (drops counted at 25 Hz)")])
    func aRateOffTheDevicesIsSaid(measured: Double, reported: Double, says: String) {
        var statistics = AccelerometerReadStatistics()
        statistics.measuredRateHertz = measured
        #expect(measuredRateText(statistics, reported: reported) == says)
    }

    /// Waiting with --reconnect: for iiod to answer only when the context could not be made
    /// because the host did not answer; otherwise for the accelerometer asked for (or any) to
    /// appear.
    @Test(arguments: [
        ("ip:192.168.1.5", IIOErrno.connectionRefused, "iio_create_context_from_uri", nil as String?,
         "Waiting for iiod at 192.168.1.5 to answer"),
        ("ip:192.168.1.5", IIOErrno.hostUnreachable, "iio_create_context_from_uri", "lis3dh",
         "Waiting for iiod at 192.168.1.5 to answer"),
        ("ip:192.168.1.5", IIOErrno.noSuchDevice, "iio_create_context_from_uri", nil,
         "Waiting for an accelerometer at ip:192.168.1.5 to appear"),
        ("ip:192.168.1.5", IIOErrno.connectionRefused, "iio_device_get_attr", "lis3dh",
         "Waiting for accelerometer 'lis3dh' at ip:192.168.1.5 to appear"),
        ("local:", IIOErrno.noSuchDevice, "iio_create_context_from_uri", "lis3dh",
         "Waiting for accelerometer 'lis3dh' at local: to appear"),
    ])
    func waitingSaysWhatItWaitsFor(uri: String, code: IIOErrno, function: String, device: String?, says: String) {
        let error = IIOError(code: code, function: function, uri: uri)
        #expect(waitingText(error, uri: uri, device: device) == says + " (--reconnect; Ctrl-C to stop): \(error)\n")
    }
}
