import Foundation
import JackwaveSoundFiles

/// Why a plot was not drawn: the input or the options were wrong (exit 2, nothing
/// written), or drawing or writing the picture failed (exit 1).
public struct PlotError: Error, Equatable {
    /// `badInput`: the user can fix the command (exit 2); `failed`: the picture could
    /// not be made or written (exit 1).
    public enum Kind: Sendable, Equatable { case badInput, failed }
    public let kind: Kind
    /// One line for the user, without the "jackwave: error: " prefix.
    public let message: String

    public static func badInput(_ message: String) -> PlotError { PlotError(kind: .badInput, message: message) }
    public static func failed(_ message: String) -> PlotError { PlotError(kind: .failed, message: message) }
}

/// How to draw; `nil` means the default.
public struct PlotOptions: Sendable, Equatable {
    /// Picture size in pixels (default: `PlotLayout.defaultWidth`, `defaultHeight(lanes:)`).
    public var width: Int?
    public var height: Int?
    /// Seconds from the start of the recording to show (default: all of it).
    public var start: Double?
    public var end: Double?
    /// A dBFS amplitude scale instead of a linear one.
    public var decibels: Bool

    public init(width: Int? = nil, height: Int? = nil, start: Double? = nil, end: Double? = nil,
                decibels: Bool = false) {
        self.width = width
        self.height = height
        self.start = start
        self.end = end
        self.decibels = decibels
    }

    /// Widths accepted: from room for the labels and 100 columns, up to 16384, well
    /// within cairo's 32767-pixel surfaces.
    public static let widthRange = 200...16384
    /// Heights accepted (a plot of many lanes needs more: `PlotLayout.minimumHeight`).
    public static let heightRange = 100...16384
}

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
