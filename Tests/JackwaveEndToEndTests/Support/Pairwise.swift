import JackwaveTestSupport
/// A pairwise covering set: as few runs as greedy choice finds such that every pair of levels
/// of every two factors (that the constraints allow together) meets in at least one run.
///
/// Factors are named, each with a level count; a run is one level per factor. Built one run
/// at a time: the first pair not yet covered is set, then each other factor takes the level
/// that covers most uncovered pairs with the factors already set (the lowest on a tie), as
/// long as the constraints allow it. Deterministic: the same factors give the same runs, so
/// a failing run can be named and run again.
struct Pairwise {
    /// A factor: its name and how many levels it has.
    struct Factor {
        let name: String
        let levels: Int
    }

    let factors: [Factor]
    /// Whether a partial run (`nil`: not set yet) may be completed: false once two set levels
    /// contradict each other.
    let allows: ([Int?]) -> Bool

    /// Every run, each a level per factor, in the order built.
    func runs() -> [[Int]] {
        var uncovered = allowedPairs()
        var runs: [[Int]] = []
        while let seed = uncovered.first {
            var run = [Int?](repeating: nil, count: factors.count)
            run[seed.f] = seed.a
            run[seed.g] = seed.b
            for k in factors.indices where run[k] == nil {
                var best: (level: Int, covers: Int)?
                for level in 0..<factors[k].levels {
                    var trial = run
                    trial[k] = level
                    guard allows(trial), completable(trial) else { continue }
                    let covers = uncovered.filter { pair in pair.covered(by: trial) && (pair.f == k || pair.g == k) }.count
                    if best == nil || covers > best!.covers { best = (level, covers) }
                }
                run[k] = best?.level ?? 0
            }
            let complete = run.map { $0! }
            uncovered.removeAll { $0.covered(by: complete) }
            runs.append(complete)
        }
        return runs
    }

    /// A pair of levels of two factors (`f` < `g`).
    struct Pair: Equatable {
        let f: Int, a: Int, g: Int, b: Int
        func covered(by run: [Int?]) -> Bool { run[f] == a && run[g] == b }
    }

    /// Every pair the constraints allow in some complete run.
    func allowedPairs() -> [Pair] {
        var pairs: [Pair] = []
        for f in factors.indices {
            for g in factors.indices where g > f {
                for a in 0..<factors[f].levels {
                    for b in 0..<factors[g].levels {
                        var run = [Int?](repeating: nil, count: factors.count)
                        run[f] = a
                        run[g] = b
                        if allows(run) && completable(run) { pairs.append(Pair(f: f, a: a, g: g, b: b)) }
                    }
                }
            }
        }
        return pairs
    }

    /// Whether `run` can be completed within the constraints (depth-first, factors in order).
    private func completable(_ run: [Int?]) -> Bool {
        guard let k = run.firstIndex(where: { $0 == nil }) else { return allows(run) }
        for level in 0..<factors[k].levels {
            var next = run
            next[k] = level
            if allows(next) && completable(next) { return true }
        }
        return false
    }
}
