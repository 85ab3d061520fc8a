/// The admin's list of invites (`listedInvites`), the same query on SQLite and
/// PostgreSQL but for how each spells its parameters: `parameter(n)` gives the n-th.
/// Parameters: 1 the time, 2 the limit, 3 the conversation (only with `oneConversation`,
/// read by its index rather than by a test every row takes).
enum ListedInvitesSQL {
    static func query(oneConversation: Bool, parameter: (Int) -> String) -> String {
        """
        SELECT i.id, i.conversation_id, i.created_by, i.created_at, i.expires_at, i.max_uses, i.uses, i.revoked_at,
               c.title, u.name
        FROM invites i LEFT JOIN conversations c ON c.id = i.conversation_id LEFT JOIN users u ON u.id = i.created_by
        WHERE \(oneConversation ? "i.conversation_id = \(parameter(3)) AND" : "")
            i.revoked_at IS NULL AND i.expires_at > \(parameter(1)) AND (i.max_uses IS NULL OR i.uses < i.max_uses)
        ORDER BY i.created_at, i.id LIMIT \(parameter(2))
        """
    }
}
