import CairnAPI
import CairnPlatform
import Foundation

/// Every refusal of the community module, as it looks over HTTP.
enum CommunityProblem: ProblemConvertible {
    case personNotFound
    case requestNotFound
    case notFriends
    case alreadyFriends(String)
    case ownRequest
    case reviewNotFound
    case subjectNotFound(String)
    case ownReviewVote
    case threadNotFound
    case messageNotFound
    case notTheAuthor
    case messageIDTaken
    case blocked(String)
    case lastOtherMember
    case topicNotFound
    case postNotFound
    case postIDTaken
    case ownPostReport
    case notThePostAuthor
    case notSharing
    case groupNotFound

    var problem: Problem {
        switch self {
        case .personNotFound: Problem.notFound("There is no one with that username.")
        case .requestNotFound: Problem.notFound("This friend request no longer exists.")
        case .notFriends: Problem.notFound("You are not friends with this person.")
        case .alreadyFriends(let name): Problem(status: .conflict, detail: "You and \(name) are already friends.")
        case .ownRequest: Problem.invalid(field: "username", "You cannot send yourself a friend request.")
        case .reviewNotFound: Problem.notFound("This review does not exist.")
        case .subjectNotFound(let subject): Problem.notFound("There is nothing to review called \(subject).")
        case .ownReviewVote: Problem(status: .forbidden, detail: "You cannot vote on or report your own review.")
        case .threadNotFound: Problem.notFound("This conversation does not exist or you are not in it.")
        case .messageNotFound: Problem.notFound("This message does not exist.")
        case .notTheAuthor: Problem(status: .forbidden, detail: "Only the author may change or delete a message.")
        case .messageIDTaken:
            Problem(status: .conflict, detail: "Another message already has this id. Make a new id for each message.")
        case .blocked(let name): Problem(status: .forbidden, detail: "You cannot message \(name).")
        case .topicNotFound: Problem.notFound("This forum topic does not exist.")
        case .postNotFound: Problem.notFound("This post does not exist.")
        case .postIDTaken:
            Problem(status: .conflict, detail: "Another post already has this id. Make a new id for each post.")
        case .ownPostReport: Problem(status: .forbidden, detail: "You cannot report your own post.")
        case .notThePostAuthor: Problem(status: .forbidden, detail: "Only the author may delete a post.")
        case .notSharing:
            Problem(status: .conflict, detail: "Your location is not being shared: turn sharing on first.")
        case .groupNotFound: Problem.notFound("This group does not exist or you are not in it.")
        case .lastOtherMember:
            Problem(
                status: .conflict,
                detail: "A conversation needs someone else in it: remove people only while two or more others remain.")
        }
    }
}
