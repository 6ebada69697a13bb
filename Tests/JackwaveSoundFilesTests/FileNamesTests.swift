import JackwaveSoundFiles
import Testing

/// Path parts with NSString's rules, now written out (no Foundation in the binary): the
/// cases jackwave meets (relative names, directories, dots, trailing slashes).
@Suite("File names")
struct FileNamesTests {
    @Test("the last component and the directory, as NSString's lastPathComponent and deletingLastPathComponent",
          arguments: [("take.wav", "take.wav", ""), ("dir/take.wav", "take.wav", "dir"), ("/take.wav", "take.wav", "/"),
                      ("a/b/", "b", "a"), ("/", "/", "/"), ("./x.csv", "x.csv", "."), ("a//b", "b", "a")])
    func components(path: String, last: String, directory: String) {
        #expect(FileNames.lastComponent(path) == last)
        #expect(FileNames.directory(path) == directory)
    }

    @Test("the stem and the extension, as NSString's deletingPathExtension and pathExtension",
          arguments: [("take.WAV", "take", ".WAV"), ("dir.d/take", "dir.d/take", ""), (".wav", ".wav", ""),
                      ("dir/take.tar.gz", "dir/take.tar", ".gz"), ("take", "take", "")])
    func extensions(path: String, stem: String, ext: String) {
        #expect(FileNames.stemAndExtension(path) == (stem, ext))
    }

    @Test("printf-style numbers read as C prints them")
    func printf() {
        #expect(String(printf: "%.3f s", 2.5) == "2.500 s")
        #expect(String(printf: "%d:%02d.%d", 1, 5, 7) == "1:05.7")
        #expect(String(printf: "%lld frames", Int64(1) << 40) == "1099511627776 frames")
        #expect(String(printf: "%.1f", -0.04) == "-0.0")
        #expect(String(printf: "%300.1f", 1.0).count == 300)   // past the first buffer
    }

    @Test("--formats columns are padded or cut to their width")
    func padded() {
        #expect("wav".padded(to: 5) == "wav  ")
        #expect("wavex64".padded(to: 5) == "wavex")
    }
}
