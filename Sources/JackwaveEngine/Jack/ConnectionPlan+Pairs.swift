extension ConnectionPlan {
    /// A plan of exactly these connections, for a command that pairs its ports itself
    /// (`jackwave measure`: output N and input N form one path, each side chosen apart).
    public init(pairs: [(String, String)], unconnectedInputs: [String] = []) {
        self.pairs = pairs
        self.unconnectedInputs = unconnectedInputs
    }
}
