import CairnAPI
import CairnPlatform
import Vapor

/// Everything the ski app refuses, mapped to HTTP in one place.
enum SkiProblem: ProblemConvertible {
    case mountainNotFound
    case pisteNotOnMountain
    /// The report id was used before for another report.
    case reportConflict
    case tutorialNotFound
    /// The tutorial id was used before for another tutorial.
    case tutorialConflict
    case priceNotFound
    case pisteNotFound
    case liftNotFound
    /// The client's price id names another mountain's price.
    case priceIDTaken
    /// The mountain has another price of this kind and season.
    case priceTaken(kind: SkiTicketKind, season: String)

    var problem: Problem {
        switch self {
        case .mountainNotFound: Problem.notFound("There is no such ski mountain.")
        case .pisteNotOnMountain: Problem.invalid(field: "piste_id", "This mountain has no such piste.")
        case .reportConflict:
            Problem(
                status: .conflict,
                detail: "This report id was already used for another report; it is kept as first sent.")
        case .tutorialNotFound: Problem.notFound("There is no such tutorial.")
        case .tutorialConflict:
            Problem(
                status: .conflict,
                detail: "This tutorial id was already used for another tutorial; it is kept as first sent.")
        case .priceNotFound: Problem.notFound("This mountain has no such ticket price.")
        case .pisteNotFound: Problem.notFound("This mountain has no such piste.")
        case .liftNotFound: Problem.notFound("This mountain has no such lift.")
        case .priceIDTaken:
            Problem(status: .conflict, detail: "This price id belongs to another mountain's price; make a new id.")
        case .priceTaken(let kind, let season):
            Problem.invalid(
                field: "kind",
                "This mountain already has a \(kind.label.lowercased()) price for \(season); change that one instead.")
        }
    }
}
