import Suggestion
import Testing

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0), ("--jbos", "--jobs", 2), ("aé", "ae", 1),
    ])
    func editDistanceCountsInsertionsDeletionsAndSubstitutions(a: String, b: String, distance: Int) {
        #expect(Suggestion.editDistance(a, b) == distance)
        #expect(Suggestion.editDistance(b, a) == distance)
    }

    @Test(arguments: [
        ("youtub", "youtube"), ("--jbos", "--jobs"), ("dmeo", "demo"), ("extensoin", "extension"),
    ])
    func aTypoGetsTheNearestWord(typo: String, expected: String) {
        let known = ["youtube", "toolbar", "--jobs", "--junit", "demo", "list", "extension", "steps"]
        #expect(Suggestion.nearest(to: typo, in: known) == expected)
        #expect(Suggestion.hint(for: typo, in: known) == "; did you mean '\(expected)'?")
    }

    @Test func aWordFarFromEveryKnownOneGetsNoHint() {
        #expect(Suggestion.nearest(to: "xyzzy", in: ["run", "trace", "list"]) == nil)
        #expect(Suggestion.hint(for: "completely-different", in: ["steps"]).isEmpty)
        #expect(Suggestion.nearest(to: "x", in: [String]()) == nil)
    }

    @Test func tiesGoToTheFirstInSortedOrder() {
        // "ab" is one edit from both; the answer must not depend on the collection's order.
        #expect(Suggestion.nearest(to: "ab", in: ["ac", "aa"]) == "aa")
        #expect(Suggestion.nearest(to: "ab", in: ["aa", "ac"]) == "aa")
    }
}
