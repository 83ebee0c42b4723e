import ShakeIIO
import Testing
@testable import ShakeCLI

/// What `devices`, `live` and `record` say when the device or iiod goes away or stops answering.
@Suite struct DeviceFailureTests {
    /// `live` and `record` offer `--reconnect` for a device that went away or stopped answering;
    /// `devices` has no such option and does not name it (until stop 50 it did, for a server
    /// that accepted the connection and never answered: EPIPE after 5 s). Both exit 74.
    @Test(arguments: [IIOErrno.brokenPipe, .timedOut, .noSuchDevice])
    func onlyCommandsThatReconnectOfferIt(code: IIOErrno) {
        let error = IIOError(code: code, function: "iio_create_context_from_uri", uri: "ip:127.0.0.1:30432")
        let reading = deviceFailure(error)
        let listing = deviceFailure(error, reconnects: false)
        #expect(reading.message.contains("(--reconnect waits for the device to come back)"), "\(reading.message)")
        #expect(!listing.message.contains("--reconnect"), "\(listing.message)")
        #expect(listing.message.hasPrefix("iio_create_context_from_uri(uri \"ip:127.0.0.1:30432\")"), "\(listing.message)")
        #expect(reading.exitStatus == ExitStatus.ioError && listing.exitStatus == ExitStatus.ioError)
    }
}
