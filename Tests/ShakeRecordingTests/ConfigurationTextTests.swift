import ShakeDetection
import ShakeRecording
import Testing

/// A configuration kept as text (a settings field, a key-value store): read and written as a
/// `String`, in a file that imports no Foundation, so no `Data` is needed.
@Suite struct ConfigurationTextTests {
    @Test func aConfigurationGoesThroughTextAndBack() throws {
        var tuned = ShakeConfiguration.hard
        tuned.quietSeconds = 0.55
        let text = ConfigurationFile.encodedText(tuned)
        #expect(text.hasPrefix("{\n") && text.hasSuffix("}\n") && text.contains("\"quietSeconds\" : 0.55"), "\(text)")
        #expect(try ConfigurationFile.decode(text, path: "settings") == tuned)
        #expect(try ConfigurationFile.decode("{\"onsetAcceleration\": 12}", path: "settings").onsetAcceleration == 12)
    }

    @Test func badTextIsRefusedNamingThePlace() {
        let error = #expect(throws: ConfigurationFileError.self) {
            try ConfigurationFile.decode("{\n  \"quietSecond\": 1\n}", path: "settings")
        }
        #expect(error?.line == 2 && error?.column == 3, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("settings:2:3: unknown configuration key 'quietSecond'") == true)
    }
}
