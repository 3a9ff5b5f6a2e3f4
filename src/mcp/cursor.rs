//! Opaque pagination cursors, stable for one build: a cursor carries a tag of the build that
//! gave it, a tag of the question it pages (tool and normalized arguments), and the offset.
//! A cursor from another build or another question is refused as `invalid_cursor`, never
//! read as an offset into a list it does not belong to.

use sha2::{Digest, Sha256};

const CURSOR_BYTES: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorError {
    /// Not a cursor this server gave, or one for another question.
    NotOurs,
    /// Given by another build of the index: the list it paged may have changed.
    OtherBuild,
}

impl CursorError {
    pub fn message(self) -> &'static str {
        match self {
            CursorError::NotOurs => "the cursor is not one this server gave for this question",
            CursorError::OtherBuild => {
                "the cursor was given by another build of the index, which has since been replaced"
            }
        }
    }

    pub fn next_step(self) -> &'static str {
        match self {
            CursorError::NotOurs => {
                "Pass the `cursor` of the previous answer unchanged with the same arguments, or omit it for the first page."
            }
            CursorError::OtherBuild => {
                "Start again without a cursor: pages of the new build may differ."
            }
        }
    }
}

fn tag(text: &str) -> [u8; 4] {
    let digest = Sha256::digest(text.as_bytes());
    [digest[0], digest[1], digest[2], digest[3]]
}

/// The cursor of the page starting at `offset` of `scope`'s list in build `build_id`.
pub fn encode(build_id: &str, scope: &str, offset: usize) -> String {
    let mut bytes = [0u8; CURSOR_BYTES];
    bytes[..4].copy_from_slice(&tag(build_id));
    bytes[4..8].copy_from_slice(&tag(scope));
    let offset = u32::try_from(offset).unwrap_or(u32::MAX);
    bytes[8..].copy_from_slice(&offset.to_le_bytes());
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The offset a cursor points at, when it belongs to `scope` in build `build_id`.
pub fn decode(cursor: &str, build_id: &str, scope: &str) -> Result<usize, CursorError> {
    let text = cursor.trim();
    if text.len() != CURSOR_BYTES * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CursorError::NotOurs);
    }
    let mut bytes = [0u8; CURSOR_BYTES];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte =
            u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).map_err(|_| CursorError::NotOurs)?;
    }
    if bytes[4..8] != tag(scope) {
        return Err(CursorError::NotOurs);
    }
    if bytes[..4] != tag(build_id) {
        return Err(CursorError::OtherBuild);
    }
    let mut offset = [0u8; 4];
    offset.copy_from_slice(&bytes[8..]);
    Ok(u32::from_le_bytes(offset) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_only_in_its_build_and_question() {
        let c = encode("build-a", "map_identifier MONDO:1", 50);
        assert_eq!(decode(&c, "build-a", "map_identifier MONDO:1"), Ok(50));
        assert_eq!(
            decode(&c, "build-b", "map_identifier MONDO:1"),
            Err(CursorError::OtherBuild)
        );
        assert_eq!(
            decode(&c, "build-a", "map_identifier MONDO:2"),
            Err(CursorError::NotOurs)
        );
        for bad in [
            "",
            "offset:50",
            "zz",
            &c[1..],
            &format!("{c}0"),
            "ÿÿÿÿÿÿÿÿÿÿÿÿ",
        ] {
            assert_eq!(
                decode(bad, "build-a", "map_identifier MONDO:1"),
                Err(CursorError::NotOurs),
                "{bad:?}"
            );
        }
    }
}
