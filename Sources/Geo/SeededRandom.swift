/// A small, fast, deterministic random number generator (SplitMix64, Steele et al. 2014), so that generated
/// graphs, planned loops, demo data, simulations and benchmark inputs are reproducible from a seed on every
/// platform. The one copy: Routing, Navigation, Parking, the demo weather, request ids and the benchmarks use it.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed value in [0, 1).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
