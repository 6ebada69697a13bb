import Glibc

/// Loudness blocks (gating blocks for integrated loudness, short-term blocks for the range)
/// counted in fixed bins: constant memory and cost however long the programme. libebur128's
/// lists grow forever and are walked (for LRA, sorted) on every query; its histogram mode
/// takes 0.1-LU bins' centres, off by up to 0.05 LU. These bins are 0.01 LU and keep their
/// summed energy, so every mean is exact and only the bin a gate or percentile falls in can
/// be off, by less than 0.01 LU.
public struct LoudnessHistogram: Sendable {
    /// BS.1770's absolute gate, LUFS: quieter blocks are not counted (the lowest bin's edge).
    static let absoluteGate = -70.0
    /// Bins per LU, and bins in all: −70 up to +30 LUFS (louder blocks share the top bin,
    /// whose energy sum stays exact).
    static let binsPerLU = 100.0
    public static let binCount = 100 * 100
    static let absoluteGateEnergy = LoudnessScale.energy(absoluteGate)

    /// Per bin: blocks counted and their summed energy (K-weighted mean squares).
    private var counts: [Int]
    private var energies: [Double]
    /// Blocks counted (above the absolute gate) and their summed energy.
    public private(set) var blocks = 0
    private var totalEnergy = 0.0
    /// The lowest and highest bins holding a block, so a query walks only those between.
    private var lowestBin = binCount
    private var highestBin = -1

    /// An empty histogram; its bins are allocated here, once.
    public init() {
        counts = Array(repeating: 0, count: Self.binCount)
        energies = Array(repeating: 0, count: Self.binCount)
    }

    /// Bins held: the same from the first block to the last (the count the tests watch).
    public var capacity: Int { counts.count }

    /// Counts one block of mean square `energy`, unless it is below the absolute gate.
    public mutating func add(energy: Double) {
        guard energy >= Self.absoluteGateEnergy else { return }
        let b = Self.bin(of: energy)
        counts[b] += 1
        energies[b] += energy
        blocks += 1
        totalEnergy += energy
        lowestBin = min(lowestBin, b)
        highestBin = max(highestBin, b)
    }

    /// Counts every block of `other` too (several programmes measured as one).
    public mutating func merge(_ other: LoudnessHistogram) {
        guard other.blocks > 0 else { return }
        for b in other.lowestBin...other.highestBin {
            counts[b] += other.counts[b]
            energies[b] += other.energies[b]
        }
        blocks += other.blocks
        totalEnergy += other.totalEnergy
        lowestBin = min(lowestBin, other.lowestBin)
        highestBin = max(highestBin, other.highestBin)
    }

    /// The bin of a block of `energy`.
    static func bin(of energy: Double) -> Int {
        let position = (LoudnessScale.loudness(energy) - absoluteGate) * binsPerLU
        guard position.isFinite else { return position > 0 ? binCount - 1 : 0 }
        return min(binCount - 1, max(0, Int(position.rounded(.down))))
    }

    /// The bins whose blocks pass a gate `gateLU` below the mean energy of all blocks: every
    /// bin above the gate's own, and the gate's bin if its blocks' mean passes (a block in a
    /// higher bin always does, so one test serves all). Empty if nothing was counted.
    private func binsAbove(relativeGate gateLU: Double) -> (range: ClosedRange<Int>, gate: Double)? {
        guard blocks > 0 else { return nil }
        let gate = totalEnergy / Double(blocks) * pow(10, gateLU / 10)
        return (max(lowestBin, Self.bin(of: gate))...highestBin, gate)
    }

    /// Whether bin `b` holds blocks that pass `gate`.
    private func passes(_ b: Int, _ gate: Double) -> Bool {
        counts[b] > 0 && energies[b] / Double(counts[b]) >= gate
    }

    /// BS.1770's gated (integrated) loudness, LUFS: the mean energy of the blocks at most
    /// 10 LU below the mean of all blocks; −∞ if none.
    public var integrated: Double {
        guard let (range, gate) = binsAbove(relativeGate: -10) else { return -.infinity }
        var n = 0
        var sum = 0.0
        for b in range where passes(b, gate) {
            n += counts[b]
            sum += energies[b]
        }
        return n > 0 ? LoudnessScale.loudness(sum / Double(n)) : -.infinity
    }

    /// EBU Tech 3342's loudness range, LU: of the blocks at most 20 LU below the mean of
    /// all, the 95th percentile's loudness minus the 10th's (as libebur128 ranks them:
    /// nearest rank); 0 if none. A percentile's block is given its bin's mean energy.
    public var loudnessRange: Double {
        guard let (range, gate) = binsAbove(relativeGate: -20) else { return 0 }
        var n = 0
        for b in range where passes(b, gate) { n += counts[b] }
        guard n > 0 else { return 0 }
        let lowRank = Int(Double(n - 1) * 0.10 + 0.5)
        let highRank = Int(Double(n - 1) * 0.95 + 0.5)
        var low = 0.0
        var seen = 0
        for b in range where passes(b, gate) {
            let before = seen
            seen += counts[b]
            let mean = energies[b] / Double(counts[b])
            if before <= lowRank && lowRank < seen { low = mean }
            if highRank < seen { return LoudnessScale.loudness(mean) - LoudnessScale.loudness(low) }
        }
        return 0
    }
}
