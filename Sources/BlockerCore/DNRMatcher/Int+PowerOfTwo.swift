extension Int {
    /// The smallest power of two not below `self` (at least 1).
    var nextPowerOfTwo: Int {
        var value = 1
        while value < self { value <<= 1 }
        return value
    }
}
