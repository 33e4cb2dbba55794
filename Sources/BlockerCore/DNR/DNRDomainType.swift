/// A DNR `DomainType`: whether the request is first- or third-party to its initiator.
public enum DNRDomainType: String, Codable, Sendable, Hashable {
    case firstParty
    case thirdParty
}
