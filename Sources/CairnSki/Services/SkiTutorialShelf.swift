import CairnAPI
import CairnPlatform
import Fluent
import Foundation

import struct Ski.TutorialVideoLink

/// The tutorial list: read by level, kept in order (positions 0, 1, 2… in each level, without gaps) as the
/// admins add, move, edit and delete, and the demo list a new installation starts with.
struct SkiTutorialShelf {
    let writer: DatabaseWriter
    let now: @Sendable () -> Date

    /// Every level, beginner first, each in order.
    static func catalogue(on db: any Database) async throws -> SkiTutorialCatalogue {
        let rows = try await SkiTutorialRecord.query(on: db).sort(\.$position).sort(\.$createdAt).all()
        let byLevel = Dictionary(grouping: rows, by: \.tutorialLevel)
        return SkiTutorialCatalogue(
            levels: SkiTutorialLevel.allCases.map {
                SkiTutorialLevelList(level: $0, tutorials: (byLevel[$0] ?? []).map(\.wire))
            })
    }

    /// The tutorials of `level` in order, on the write's `db`.
    static func level(_ level: SkiTutorialLevel, on db: any Database) async throws -> [SkiTutorialRecord] {
        try await SkiTutorialRecord.query(on: db).filter(\.$level == level.rawValue).sort(\.$position)
            .sort(\.$createdAt).all()
    }

    /// Saves the rows whose position is not their index.
    static func renumber(_ rows: [SkiTutorialRecord], on db: any Database) async throws {
        for (index, row) in rows.enumerated() where row.position != index {
            row.position = index
            try await row.save(on: db)
        }
    }

    /// Adds `form`'s tutorial at its position (last when none); the same id with the same tutorial again
    /// answers the one kept (`created` false), with another tutorial 409.
    func add(_ form: SkiTutorialForm, id: UUID, on db: any Database) async throws -> (SkiTutorial, created: Bool) {
        let now = now()
        return try await writer.transaction(on: db) { db in
            if let existing = try await SkiTutorialRecord.find(id, on: db) {
                guard existing.level == form.level.rawValue, existing.title == form.title, existing.url == form.url
                else { throw SkiProblem.tutorialConflict }
                return (existing.wire, false)
            }
            let row = SkiTutorialRecord()
            row.id = id
            row.createdAt = now
            row.demo = false
            Self.fill(row, from: form, at: now)
            var rows = try await Self.level(form.level, on: db)
            row.position = min(form.position ?? rows.count, rows.count)
            rows.insert(row, at: row.position)
            try await row.create(on: db)
            try await Self.renumber(rows, on: db)
            return (row.wire, true)
        }
    }

    /// Changes tutorial `id` to `form` (moving it within or between levels); nil when there is none.
    func edit(_ id: UUID, to form: SkiTutorialForm, on db: any Database) async throws -> SkiTutorial? {
        let now = now()
        return try await writer.transaction(on: db) { db in
            guard let row = try await SkiTutorialRecord.find(id, on: db) else { return nil }
            let oldLevel = row.tutorialLevel
            var old = try await Self.level(oldLevel, on: db)
            let oldIndex = old.firstIndex { $0.id == id } ?? old.count
            old.removeAll { $0.id == id }
            Self.fill(row, from: form, at: now)
            row.demo = false
            if oldLevel == form.level {
                old.insert(row, at: min(form.position ?? oldIndex, old.count))
                try await Self.renumber(old, on: db)
            } else {
                try await Self.renumber(old, on: db)
                var new = try await Self.level(form.level, on: db)
                new.insert(row, at: min(form.position ?? new.count, new.count))
                try await Self.renumber(new, on: db)
            }
            try await row.save(on: db)
            return row.wire
        }
    }

    /// Deletes tutorial `id` and closes the gap in its level; nothing when it is gone already.
    func delete(_ id: UUID, on db: any Database) async throws {
        try await writer.transaction(on: db) { db in
            guard let row = try await SkiTutorialRecord.find(id, on: db) else { return }
            let level = row.tutorialLevel
            try await row.delete(on: db)
            try await Self.renumber(try await Self.level(level, on: db), on: db)
        }
    }

    static func fill(_ row: SkiTutorialRecord, from form: SkiTutorialForm, at now: Date) {
        row.level = form.level.rawValue
        row.title = form.title
        row.url = form.url
        row.provider = form.link.provider.rawValue
        row.videoID = form.link.videoID
        row.updatedAt = now
    }

    /// The demo list when there are no tutorials yet: a second run, or a list the admins keep, changes nothing.
    func seed(on db: any Database) async throws {
        guard try await SkiTutorialRecord.query(on: db).count() == 0 else { return }
        let now = now()
        try await writer.transaction(on: db) { db in
            var positions: [SkiTutorialLevel: Int] = [:]
            for (level, title, url) in Self.demo {
                let link = try TutorialVideoLink.parse(url)
                let row = SkiTutorialRecord()
                row.id = UUID()
                row.level = level.rawValue
                row.title = title
                row.url = url
                row.provider = link.provider.rawValue
                row.videoID = link.videoID
                row.position = positions[level, default: 0]
                positions[level, default: 0] += 1
                row.demo = true
                row.createdAt = now
                row.updatedAt = now
                try await row.create(on: db)
            }
        }
    }

    /// The demo list: published lessons of Stomp It Tutorials on YouTube and reference pages, marked demo because
    /// the installation's admin has not chosen them (they replace or keep them in the editor).
    static let demo: [(SkiTutorialLevel, String, String)] = [
        (
            .beginner, "How to ski: 10 beginner skills for the first day (Stomp It Tutorials)",
            "https://www.youtube.com/watch?v=_yfFGDuJ2g0"
        ),
        (.beginner, "Alpine skiing: the basics explained", "https://en.wikipedia.org/wiki/Alpine_skiing"),
        (.beginner, "Chairlifts: how they work, getting on and off", "https://en.wikipedia.org/wiki/Chairlift"),
        (.beginner, "Lessons with certified instructors (PSIA-AASI)", "https://www.thesnowpros.org"),
        (
            .intermediate, "How to ski: 7 steps to parallel turns (Stomp It Tutorials)",
            "https://www.youtube.com/watch?v=tyB7Wu_aCq8"
        ),
        (.intermediate, "Pistes and their difficulty colours", "https://en.wikipedia.org/wiki/Piste"),
        (.intermediate, "Carving turns explained", "https://en.wikipedia.org/wiki/Carving_turn"),
        (.intermediate, "Ski bindings and their release setting", "https://en.wikipedia.org/wiki/Ski_binding"),
        (
            .advanced, "How to carve on skis: 3 common mistakes (Stomp It Tutorials)",
            "https://www.youtube.com/watch?v=KWqQ4pf2OII"
        ),
        (
            .advanced, "How to ski powder: 10 tips (Stomp It Tutorials)",
            "https://www.youtube.com/watch?v=b2ixGC5uDCE"
        ),
        (.advanced, "Mogul skiing as a sport", "https://en.wikipedia.org/wiki/Mogul_skiing"),
        (.advanced, "Backcountry skiing and avalanche safety", "https://en.wikipedia.org/wiki/Backcountry_skiing"),
    ]
}
