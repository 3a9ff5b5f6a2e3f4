//! Near spellings: the keys within one or two edits of a query (an adjacent transposition
//! counts as one), found by one walk over the FST with a bit-parallel Damerau–Levenshtein
//! automaton over characters.
//!
//! Two things keep the walk short. Nothing is compiled per query (a Levenshtein DFA for two
//! edits took longer to build than the walk). And once a path has spent its edits, the walk
//! looks up only the few bytes that can still match instead of trying every transition of
//! every node: most nodes of a fuzzy walk are visited with no edit left.

use fst::raw::{Fst, Node, Output};

/// Queries of more characters are not searched (a bit per query position, in a `u128`).
pub const MAX_NEAR_CHARS: usize = 127;

/// A key within the allowed edits: its distance, bytes and FST value.
pub type NearKey = (u8, Vec<u8>, u64);

/// The keys of `fst` within `max_edits` (1 or 2) of `query`; with 2, a key whose first
/// character differs from the query's gets only one. Unsorted, each key once.
pub fn near_keys<D: AsRef<[u8]>>(fst: &Fst<D>, query: &str, max_edits: u8) -> Vec<NearKey> {
    let Some(pattern) = Pattern::new(query, max_edits) else {
        return Vec::new();
    };
    let mut walk = Walk {
        fst,
        pattern: &pattern,
        key: Vec::new(),
        found: Vec::new(),
    };
    walk.visit(fst.root(), pattern.start(), Output::zero());
    walk.found
}

/// The query as bit masks: bit `j` of a character's mask is set when the query's `j`-th
/// character (from 1) is that character.
struct Pattern {
    chars: Vec<char>,
    ascii: [u128; 128],
    other: Vec<(char, u128)>,
    /// Bits 0..=len.
    full: u128,
    max_edits: usize,
}

impl Pattern {
    fn new(query: &str, max_edits: u8) -> Option<Pattern> {
        let chars: Vec<char> = query.chars().collect();
        let max_edits = usize::from(max_edits);
        if chars.is_empty() || chars.len() > MAX_NEAR_CHARS || !(1..=2).contains(&max_edits) {
            return None;
        }
        let mut pattern = Pattern {
            full: u128::MAX >> (127 - chars.len()),
            ascii: [0; 128],
            other: Vec::new(),
            chars,
            max_edits,
        };
        for (i, &c) in pattern.chars.iter().enumerate() {
            let bit = 1u128 << (i + 1);
            match usize::try_from(u32::from(c)).ok().filter(|&a| a < 128) {
                Some(a) => pattern.ascii[a] |= bit,
                None => match pattern.other.iter_mut().find(|(o, _)| *o == c) {
                    Some((_, mask)) => *mask |= bit,
                    None => pattern.other.push((c, bit)),
                },
            }
        }
        Some(pattern)
    }

    fn mask(&self, c: char) -> u128 {
        match usize::try_from(u32::from(c)).ok().filter(|&a| a < 128) {
            Some(a) => self.ascii[a],
            None => self
                .other
                .iter()
                .find(|(o, _)| *o == c)
                .map_or(0, |(_, mask)| *mask),
        }
    }

    fn start(&self) -> State {
        let mut rows = [0u128; 3];
        for (k, row) in rows.iter_mut().enumerate().take(self.max_edits + 1) {
            // A query prefix of k characters costs k deletions before any key character.
            *row = (u128::MAX >> (127 - k)) & self.full;
        }
        State {
            rows,
            before: [0; 2],
            prev: None,
            budget: self.max_edits,
            chars_read: 0,
            pending: [0; 4],
            pending_len: 0,
        }
    }

    /// The state after one more key character.
    fn step(&self, s: &State, c: char) -> State {
        let b = self.mask(c);
        let mut budget = s.budget;
        // Two edits only for keys that keep the query's first character.
        if s.chars_read == 0 && self.max_edits == 2 && self.chars.first() != Some(&c) {
            budget = 1;
        }
        let mut rows = [0u128; 3];
        rows[0] = (s.rows[0] << 1) & b;
        for k in 1..=budget {
            let transposed = match s.prev {
                Some(p) => (s.before[k - 1] << 2) & (b << 1) & self.mask(p),
                None => 0,
            };
            rows[k] = (((s.rows[k] << 1) & b)
                | s.rows[k - 1]
                | (s.rows[k - 1] << 1)
                | (rows[k - 1] << 1)
                | transposed)
                & self.full;
        }
        State {
            rows,
            before: [s.rows[0], s.rows[1]],
            prev: Some(c),
            budget,
            chars_read: s.chars_read.saturating_add(1),
            pending: [0; 4],
            pending_len: 0,
        }
    }

    /// The key's distance when it ends in this state, within the budget.
    fn distance(&self, s: &State) -> Option<u8> {
        let end = 1u128 << self.chars.len();
        (0..=s.budget)
            .find(|&k| s.rows[k] & end != 0)
            .and_then(|k| u8::try_from(k).ok())
    }

    /// The only characters that can extend a state with no edit left (`None` while edits
    /// remain, when any character can, or when too many can): the query's next character at
    /// each live position, and the one that completes a transposition.
    fn next_chars(&self, s: &State) -> Option<NextChars> {
        let last = s.budget;
        if s.rows[..last].iter().any(|&r| r != 0) {
            return None;
        }
        let mut out = NextChars::default();
        // Bit j live: the query's character j (from 0) comes next.
        for j in bits(s.rows[last]) {
            if let Some(&c) = self.chars.get(j) {
                out.add(c)?;
            }
        }
        if let Some(p) = s.prev {
            // Before `p`, prefix i was live and `p` is the query's character i+1: the
            // query's character i completes the swap.
            let swappable = s.before[last - 1] & (self.mask(p) >> 2);
            for i in bits(swappable) {
                if let Some(&c) = self.chars.get(i) {
                    out.add(c)?;
                }
            }
        }
        Some(out)
    }
}

/// The set bits of a mask, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let at = mask.trailing_zeros();
        if at >= 128 {
            return None;
        }
        mask &= mask - 1;
        usize::try_from(at).ok()
    })
}

/// A few distinct characters, without allocating.
#[derive(Default)]
struct NextChars {
    chars: [char; 6],
    len: usize,
}

impl NextChars {
    /// Adds `c`; `None` when the set is full.
    fn add(&mut self, c: char) -> Option<()> {
        if !self.chars[..self.len].contains(&c) {
            *self.chars.get_mut(self.len)? = c;
            self.len += 1;
        }
        Some(())
    }

    fn iter(&self) -> impl Iterator<Item = char> + '_ {
        self.chars[..self.len].iter().copied()
    }
}

#[derive(Clone, Copy)]
struct State {
    /// Row k: the query prefixes (as bits) that the key so far meets within k edits.
    rows: [u128; 3],
    /// Rows 0 and 1 before the previous character (for transpositions).
    before: [u128; 2],
    prev: Option<char>,
    /// The edits allowed for this key.
    budget: usize,
    chars_read: u32,
    /// The bytes of a character not yet complete.
    pending: [u8; 4],
    pending_len: u8,
}

impl State {
    fn alive(&self) -> bool {
        self.rows[..=self.budget].iter().any(|&r| r != 0)
    }
}

struct Walk<'a, D> {
    fst: &'a Fst<D>,
    pattern: &'a Pattern,
    key: Vec<u8>,
    found: Vec<NearKey>,
}

impl<D: AsRef<[u8]>> Walk<'_, D> {
    fn visit(&mut self, node: Node<'_>, state: State, output: Output) {
        if node.is_final()
            && state.pending_len == 0
            && let Some(d) = self.pattern.distance(&state)
        {
            let value = output.cat(node.final_output()).value();
            self.found.push((d, self.key.clone(), value));
        }
        let few = match state.pending_len {
            0 => self.pattern.next_chars(&state),
            _ => None,
        };
        match few {
            Some(chars) => {
                for c in chars.iter() {
                    self.follow_char(node, &state, output, c);
                }
            }
            None => {
                for t in node.transitions() {
                    if let Some(next) = self.byte(&state, t.inp) {
                        self.key.push(t.inp);
                        self.visit(self.fst.node(t.addr), next, output.cat(t.out));
                        self.key.pop();
                    }
                }
            }
        }
    }

    /// Follows one whole character's bytes from `node`, if the FST has them.
    fn follow_char(&mut self, node: Node<'_>, state: &State, output: Output, c: char) {
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        let fst = self.fst;
        let mut node = node;
        let mut output = output;
        for &b in bytes {
            let Some(i) = node.find_input(b) else {
                return;
            };
            let t = node.transition(i);
            output = output.cat(t.out);
            node = fst.node(t.addr);
        }
        let next = self.pattern.step(state, c);
        if next.alive() {
            let len = self.key.len();
            self.key.extend_from_slice(bytes);
            self.visit(node, next, output);
            self.key.truncate(len);
        }
    }

    /// The state after one key byte, or `None` when no key through it can match.
    fn byte(&self, state: &State, b: u8) -> Option<State> {
        let mut s = *state;
        let len = usize::from(s.pending_len);
        if len == 0 && b < 0x80 {
            let next = self.pattern.step(&s, char::from(b));
            return next.alive().then_some(next);
        }
        *s.pending.get_mut(len)? = b;
        s.pending_len += 1;
        let bytes = &s.pending[..len + 1];
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                let c = text.chars().next()?;
                let next = self.pattern.step(&s, c);
                next.alive().then_some(next)
            }
            // Incomplete so far: wait for the rest of the character.
            Err(e) if e.error_len().is_none() => Some(s),
            Err(_) => {
                let next = self.pattern.step(&s, char::REPLACEMENT_CHARACTER);
                next.alive().then_some(next)
            }
        }
    }
}
