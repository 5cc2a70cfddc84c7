//! Games from PGN text (pgn-reader): tags, the `[FEN]`/`[SetUp]` start position, the main line
//! (variations skipped), and the result written in the movetext.

use std::ops::ControlFlow;

use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

use super::error::RulesError;
use super::game::{Game, is_chess960_variant};

/// One game as written in the PGN, before its moves are checked.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the FEN tag when present.
    pub fn start_fen(&self) -> Option<&str> {
        self.tag("FEN")
    }

    /// Replays the main line; an illegal move names its ply and reason. A Chess960
    /// `[Variant]` tag selects Chess960 castling.
    pub fn to_game(&self) -> Result<Game, RulesError> {
        let chess960 = self.tag("Variant").is_some_and(is_chess960_variant);
        Game::from_moves_in(self.start_fen(), &self.moves, chess960)
    }
}

struct Collector;

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(PgnGame {
            tags,
            ..PgnGame::default()
        })
    }

    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        movetext.moves.push(san_plus.san.to_string());
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _movetext: &mut Self::Movetext, _nag: Nag) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        _movetext: &mut Self::Movetext,
        _comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        movetext: &mut Self::Movetext,
        outcome: shakmaty::Outcome,
    ) -> ControlFlow<Self::Output> {
        movetext.result = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext
    }
}

/// Reads every game in `text`.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, RulesError> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    let mut collector = Collector;
    loop {
        match reader.read_game(&mut collector) {
            Ok(Some(g)) => games.push(g),
            Ok(None) => break,
            Err(e) => return Err(RulesError::Pgn(format!("cannot read the PGN: {e}"))),
        }
    }
    if games.is_empty() {
        return Err(RulesError::Pgn("no game found in the PGN".into()));
    }
    Ok(games)
}

/// The first game of `text`, replayed.
pub fn game_from_pgn(text: &str) -> Result<Game, RulesError> {
    let games = read_games(text)?;
    games[0].to_game()
}
