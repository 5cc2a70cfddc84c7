//! Small helpers for the sentences every layer writes (the checker's reasons, the answers,
//! hovers and the CLI's report).

/// `s` with its first letter in upper case, for a reason or clause that opens a sentence.
pub fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A sentence fragment with its first letter in lower case, unless it starts with a name.
pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if !(s.starts_with("White") || s.starts_with("Black")) => {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        Some(f) => f.to_string() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::capitalise_first;

    #[test]
    fn only_the_first_letter_changes() {
        assert_eq!(capitalise_first("rook on h1 moved"), "Rook on h1 moved");
        assert_eq!(capitalise_first("échec"), "Échec");
        assert_eq!(capitalise_first(""), "");
    }
}
