//! Votes of several judges per row: the majority label of a (rows x k) matrix of label codes, with
//! how unanimous it was (`scipy.stats.mode` along rows with its smallest-label tie rule, or the
//! earliest voter's label), and the mean and median of ordinal scores (`numpy.nanmean` /
//! `numpy.nanmedian` along rows).

use rayon::prelude::*;

use crate::error::{filled, Error, Result};
use crate::interrupt::watched;

/// Which of several equally frequent labels wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// The smallest label (as `scipy.stats.mode`).
    Lowest,
    /// The label cast first in the row (the lowest column index).
    First,
}

/// The outcome of one row.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Vote {
    /// The winning label code; -1 when every vote abstained.
    pub winner: i64,
    /// Votes for the winner.
    pub count: usize,
    /// Votes cast (not abstaining).
    pub valid: usize,
    /// count / valid: 1.0 when unanimous; NaN when every vote abstained.
    pub agreement: f64,
    /// Another label had as many votes as the winner.
    pub tied: bool,
}

fn check_shape<T>(values: &[T], rows: usize, k: usize) -> Result<()> {
    if rows.checked_mul(k) != Some(values.len()) {
        return Err(Error::InvalidValue(format!(
            "{} votes do not fill {rows} rows of {k}",
            values.len()
        )));
    }
    Ok(())
}

/// Rows per rayon task (results do not depend on it).
const ROW_CHUNK: usize = 4096;

/// The winner of each row of a row-major (rows x k) matrix of label codes; negative codes abstain.
pub fn majority_vote(codes: &[i64], rows: usize, k: usize, tie: Tie) -> Result<Vec<Vote>> {
    check_shape(codes, rows, k)?;
    if k == 0 {
        return filled(rows, vote_row(&[], tie), "the votes");
    }
    Ok(codes
        .par_chunks(k)
        .with_min_len(ROW_CHUNK)
        .map(watched(|row: &[i64]| vote_row(row, tie)))
        .collect())
}

fn vote_row(row: &[i64], tie: Tie) -> Vote {
    let mut sorted: Vec<i64> = row.iter().copied().filter(|&c| c >= 0).collect();
    sorted.sort_unstable();
    let valid = sorted.len();
    // Runs of equal codes in sorted order: (code, votes).
    let mut runs: Vec<(i64, usize)> = Vec::new();
    for &c in &sorted {
        match runs.last_mut() {
            Some((code, n)) if *code == c => *n += 1,
            _ => runs.push((c, 1)),
        }
    }
    let count = runs.iter().map(|r| r.1).max().unwrap_or(0);
    let tied = runs.iter().filter(|r| r.1 == count).count() > 1;
    let votes_for = |c: i64| {
        runs.binary_search_by_key(&c, |r| r.0)
            .ok()
            .and_then(|i| runs.get(i))
            .map_or(0, |r| r.1)
    };
    let winner = match tie {
        Tie::Lowest => runs.iter().find(|r| r.1 == count).map(|r| r.0),
        Tie::First => row
            .iter()
            .copied()
            .find(|&c| c >= 0 && votes_for(c) == count),
    };
    Vote {
        winner: winner.unwrap_or(-1),
        count,
        valid,
        agreement: count as f64 / valid as f64,
        tied,
    }
}

/// Mean and median of one row of ordinal scores, NaN skipped.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ordinal {
    pub mean: f64,
    /// The middle score; the mean of the two middle ones for an even count (as numpy).
    pub median: f64,
    /// Scores that are not NaN.
    pub count: usize,
}

/// `nanmean` and `nanmedian` of each row of a row-major (rows x k) matrix of scores.
pub fn ordinal_vote(scores: &[f64], rows: usize, k: usize) -> Result<Vec<Ordinal>> {
    check_shape(scores, rows, k)?;
    if k == 0 {
        return filled(rows, ordinal_row(&[]), "the scores");
    }
    Ok(scores
        .par_chunks(k)
        .with_min_len(ROW_CHUNK)
        .map(watched(ordinal_row))
        .collect())
}

fn ordinal_row(row: &[f64]) -> Ordinal {
    let mut v: Vec<f64> = row.iter().copied().filter(|x| !x.is_nan()).collect();
    let count = v.len();
    let mean = v.iter().sum::<f64>() / count as f64;
    v.sort_unstable_by(f64::total_cmp);
    let median = match count {
        0 => f64::NAN,
        c if c % 2 == 1 => v.get(c / 2).copied().unwrap_or(f64::NAN),
        c => match (v.get(c / 2 - 1), v.get(c / 2)) {
            (Some(lo), Some(hi)) => (lo + hi) / 2.0,
            _ => f64::NAN,
        },
    };
    Ordinal {
        mean,
        median,
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majority_and_ties() {
        let codes = [
            1, 0, 1, /**/ 2, 1, -1, /**/ -1, -1, -1, /**/ 3, 3, 3,
        ];
        let v = majority_vote(&codes, 4, 3, Tie::Lowest).unwrap();
        assert_eq!(
            (v[0].winner, v[0].count, v[0].valid, v[0].tied),
            (1, 2, 3, false)
        );
        assert_eq!(
            (v[1].winner, v[1].count, v[1].valid, v[1].tied),
            (1, 1, 2, true)
        );
        assert_eq!(v[1].agreement, 0.5);
        assert_eq!((v[2].winner, v[2].valid), (-1, 0));
        assert!(v[2].agreement.is_nan());
        assert_eq!(v[3].agreement, 1.0);
        let v = majority_vote(&codes, 4, 3, Tie::First).unwrap();
        assert_eq!(v[1].winner, 2);
        assert!(majority_vote(&codes, 3, 3, Tie::First).is_err());
    }

    #[test]
    fn ordinal() {
        let s = [1.0, 5.0, 3.0, 4.0, /**/ 2.0, f64::NAN, 4.0, f64::NAN];
        let o = ordinal_vote(&s, 2, 4).unwrap();
        assert_eq!((o[0].mean, o[0].median, o[0].count), (3.25, 3.5, 4));
        assert_eq!((o[1].mean, o[1].median, o[1].count), (3.0, 3.0, 2));
        let o = ordinal_vote(&[f64::NAN], 1, 1).unwrap();
        assert!(o[0].mean.is_nan() && o[0].median.is_nan());
    }
}
