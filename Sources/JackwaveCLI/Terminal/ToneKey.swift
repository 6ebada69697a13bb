/// A key pressed while a tone plays on a terminal.
enum ToneKey: Equatable {
    case pause, semitoneUp, semitoneDown, centUp, centDown, louder, quieter, quit
}
