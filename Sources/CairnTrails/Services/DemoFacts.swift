import CairnAPI
import Foundation
import Trails

/// What no open data gives about a trail — fees, hours, parking, rangers, safety, scavenger focal points — as
/// plausible demo text for the demo catalogue, every piece marked "(demo)" and `demo_facts` set on the trail,
/// so nobody mistakes it for the park authority's word. Wildlife and plants are real species of southern
/// Finland's parks and forests.
enum DemoFacts {
    static func apply(to trail: TrailRecord, draft: TrailDraft) {
        trail.demoFacts = true
        trail.fees = "No admission fee: city parks and nature reserves are free to enter (demo)."
        trail.seasonHours =
            "Open all year, 24 hours. Paths are not cleared of snow from November to March (demo)."
        trail.parkingRules =
            "Parking at the trailhead for up to 4 hours on weekdays 8–18 with a parking disc; free at other times (demo)."
        trail.additionalFees = "Guided walks 10 € per person; campfire wood at the fire pits is free (demo)."
        trail.rangers = [
            TrailRanger(name: "Park ranger on duty (demo)", phones: ["+358 9 310 00000"]),
            TrailRanger(name: "Emergency: 112", phones: ["112"]),
        ]
        trail.safety = [
            TrailSafetyItem(
                kind: .wildlife, name: "European adder (Vipera berus)",
                text: "Finland's only venomous snake basks on sunny rocks and path edges from April to September. "
                    + "Keep to the path, step firmly, and call 112 after a bite.",
                warningSigns: "A zig-zag band along the back; a hiss; a coiled body raised to strike.", photoURL: nil),
            TrailSafetyItem(
                kind: .wildlife, name: "Ticks (Ixodes ricinus)",
                text: "Ticks in tall grass can carry Lyme disease and TBE. Wear long trousers and check yourself "
                    + "after the walk.",
                warningSigns: "A small dark spot that does not brush off; a red ring around a bite days later.",
                photoURL: nil),
            TrailSafetyItem(
                kind: .dangerousPlant, name: "Giant hogweed (Heracleum mantegazzianum)",
                text: "Its sap burns skin in sunlight. Do not touch; wash the skin at once if you did.",
                warningSigns: nil, photoURL: nil),
            TrailSafetyItem(
                kind: .ediblePlant, name: "Bilberry (Vaccinium myrtillus)",
                text: "Blue berries ripe in July and August under spruce and pine; everyone may pick them "
                    + "(everyman's right).", warningSigns: nil, photoURL: nil),
            TrailSafetyItem(
                kind: .ediblePlant, name: "Lingonberry (Vaccinium vitis-idaea)",
                text: "Red berries ripe from August; sour raw, good cooked.", warningSigns: nil, photoURL: nil),
            TrailSafetyItem(
                kind: .equipment, name: "What to bring",
                text: "Water, a charged phone, a rain layer, a tick remover, and shoes with grip: roots and rock "
                    + "are slippery when wet.", warningSigns: nil, photoURL: nil),
        ]
        var points = [
            StoredFocalPoint(
                id: "red-squirrel", kind: .animal, name: "Red squirrel",
                text: "Look up into the spruces; listen for cones being stripped (demo).", photoURL: nil),
            StoredFocalPoint(
                id: "great-tit", kind: .animal, name: "Great tit",
                text: "A yellow bird with a black stripe down its chest; it sings 'ti-ti-tyy' (demo).", photoURL: nil),
            StoredFocalPoint(
                id: "wood-anemone", kind: .plant, name: "Wood anemone",
                text: "White spring flowers carpeting the woods in May (demo).", photoURL: nil),
            StoredFocalPoint(
                id: "bilberry", kind: .plant, name: "Bilberry bush",
                text: "Low shrubs with blue berries in summer (demo).", photoURL: nil),
        ]
        for (index, poi) in draft.pointsOfInterest.prefix(3).enumerated() {
            points.append(
                StoredFocalPoint(
                    id: "poi-\(index + 1)", kind: .poi, name: poi.name, text: "Find \(poi.name) along the trail.",
                    photoURL: nil))
        }
        trail.focalPoints = points
    }
}
