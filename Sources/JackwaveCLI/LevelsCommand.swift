/// `jackwave levels FILE`: a sound file's level stream, computed offline. (Stub.)
enum LevelsCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("levels is not available yet")
        return 2
    }
}
