import FoundationEssentials
import JackwaveHost
import JackwaveSoundFiles

/// `--stream` and `--quality` in the main command: checked before JACK and before any file,
/// then, with the server's rate and the inputs, made into the run's settings.
extension RunCommand {
    /// Before anything is opened: libshout is there, a password is given; returns the
    /// warnings to say (a password in the URL, a password file others can read).
    static func checkStream(_ o: RunOptions) throws(UsageError) -> [String] {
        guard let target = o.stream else { return [] }
        if let missing = Shout.unavailable { throw UsageError(missing) }
        do throws(StreamTargetError) {
            return try StreamPassword.resolve(target, file: o.streamPasswordFile,
                                              environment: ProcessInfo.processInfo.environment).warnings
        } catch {
            throw UsageError(error.message)
        }
    }

    /// The stream's settings once the server's rate and the channels are known: the codec
    /// must take them (MP3: 1 or 2 channels; Opus: 48 kHz and four lower rates).
    static func streamSettings(_ o: RunOptions, channels: Int, serverRate: Int) throws(UsageError) -> StreamSettings? {
        guard let target = o.stream else { return nil }
        let format = target.codec.format
        do throws(FileChoiceError) {
            try FileChoice.checkChannels(channels, format: format, path: target.mount)
            if let rates = format.sampleRates, !rates.contains(serverRate) {
                throw FileChoiceError("--stream \(target.display): \(format.name) takes \(rates.map { String($0) }.joined(separator: ", ")) Hz, and the server runs at \(serverRate) Hz")
            }
            let compression = try o.streamQuality?.settings(for: format, channels: channels, sampleRate: serverRate, option: "--stream-quality")
            let password = try streamPassword(o, target)
            return StreamSettings(target: target, password: password, compression: compression)
        } catch {
            throw UsageError(error.message)
        }
    }

    private static func streamPassword(_ o: RunOptions, _ target: StreamTarget) throws(FileChoiceError) -> String {
        do throws(StreamTargetError) {
            return try StreamPassword.resolve(target, file: o.streamPasswordFile, environment: ProcessInfo.processInfo.environment).password
        } catch {
            throw FileChoiceError(error.message)
        }
    }
}
