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

    /// One of each, in the singular.
    @Test func oneOfEachIsSaidInTheSingular() {
        var statistics = AccelerometerReadStatistics()
        statistics.outages = 1
        statistics.outageSeconds = 1.64
        statistics.spreadSamples = 1
        statistics.outOfOrderSamples = 1
        statistics.clockStepsBack = 1
        #expect(outageText(statistics) == "; 1 outage (1.6 s without the device)")
        #expect(spreadText(statistics) == "; 1 sample time spread over its FIFO batches (the driver stamps a batch "
            + "once, or as it reads it out)")
        #expect(discardedText(statistics, keptBatchTimes: false) == "; 1 sample discarded: its time did not increase")
        #expect(clockText(statistics) == "; the device's clock went back once (the times after follow on)")
    }

    /// Several, in the plural; discarded samples with --keep-batch-times also say what to leave out.
    @Test func severalAreSaidInThePlural() {
        var statistics = AccelerometerReadStatistics()
        statistics.outages = 2
        statistics.outageSeconds = 3.31
        statistics.spreadSamples = 1788
        statistics.outOfOrderSamples = 3
        statistics.clockStepsBack = 2
        #expect(outageText(statistics) == "; 2 outages (3.3 s without the device)")
        #expect(spreadText(statistics) == "; 1788 sample times spread over their FIFO batches (the driver stamps a "
            + "batch once, or as it reads it out)")
        #expect(discardedText(statistics, keptBatchTimes: true) == "; 3 samples discarded: their time did not increase "
            + "(a FIFO batch stamped once? leave out --keep-batch-times to spread them)")
        #expect(clockText(statistics) == "; the device's clock went back 2 times (the times after follow on)")
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
