import JackwaveSoundFiles

/// A picture file type, chosen by the output's extension.
public enum PlotFormat: Sendable, Equatable {
    case png, svg

    public init?(path: String) {
        switch FileNames.lowercasedExtension(path) {
        case "png": self = .png
        case "svg": self = .svg
        default: return nil
        }
    }
}
