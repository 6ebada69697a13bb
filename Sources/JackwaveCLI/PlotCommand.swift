/// `jackwave plot FILE -o OUT`: draws a recording or a level stream. (Stub.)
enum PlotCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("plot is not available yet")
        return 2
    }
}
