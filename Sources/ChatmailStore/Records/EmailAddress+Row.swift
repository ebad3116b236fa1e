import GRDB

extension EmailAddress {
    /// The address a row holds in two columns, `<prefix>address` and `<prefix>name` by default, as the
    /// `message` (`from_`) and participant tables store them.
    init(_ row: Row, address: String, name: String) {
        self.init(address: row[address], name: row[name])
    }

    /// The message's author, from the `from_address` and `from_name` columns.
    init(authorOf row: Row) {
        self.init(row, address: "from_address", name: "from_name")
    }
}
