//! Arguments as Python hands them over, checked with the parameter's name in the message:
//! a whole number that is negative, too large or not a number says which parameter it
//! was (PyO3 alone raises a bare `OverflowError` for `-1` into an unsigned parameter).
//! Each parameter has its reader here, used as `#[pyo3(from_py_with = args::NAME)]`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// The whole number `obj` as a `T`, or an error naming `name`: `TypeError` for something
/// other than an integer, `ValueError` for a negative one or one over `T`'s range.
pub fn whole<T>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<T>
where
    u64: From<T>,
    T: TryFrom<u64> + Copy + Bounded,
{
    if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not {}",
            obj.get_type().name()?
        )));
    }
    if obj.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "{name} must be 0 or more, not {obj}"
        )));
    }
    obj.extract::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name} must be at most {}, not {obj}",
                u64::from(T::MAX)
            ))
        })
}

/// The largest value of an unsigned type, for [`whole`]'s message.
pub trait Bounded {
    /// The type's largest value.
    const MAX: Self;
}

impl Bounded for u16 {
    const MAX: u16 = u16::MAX;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

/// A whole-number type a parameter is read as.
pub trait Whole: Sized {
    /// `obj` as this type, or the error naming `name`.
    fn read(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self>;
}

macro_rules! whole_through_u64 {
    ($($ty:ty),*) => {
        $(
            impl Whole for $ty {
                fn read(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
                    whole::<$ty>(obj, name)
                }
            }
        )*
    };
}

whole_through_u64!(u16, u32, u64);

impl Whole for usize {
    fn read(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
        let n: u64 = whole(obj, name)?;
        usize::try_from(n).map_err(|_| {
            PyValueError::new_err(format!("{name} must be at most {}, not {obj}", usize::MAX))
        })
    }
}

/// Every value of the list `obj` read by [`whole`], the parameter and the position named.
pub fn whole_list<T: TryFrom<u64> + Copy + Bounded>(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Vec<T>>
where
    u64: From<T>,
{
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a list of integers, not str"
        )));
    }
    let mut values = Vec::new();
    for (i, item) in obj
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} must be a list of integers, not {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?
        .enumerate()
    {
        values.push(whole(&item?, &format!("{name}[{i}]"))?);
    }
    Ok(values)
}

/// Defines the reader of each named parameter: `one` for a required one, `optional` for
/// one that takes None.
macro_rules! readers {
    ($($reader:ident ($param:literal) -> $kind:ident $ty:ty;)*) => {
        $(readers!(@fn $kind $reader $param $ty);)*
    };
    (@fn one $reader:ident $param:literal $ty:ty) => {
        #[doc = concat!("The parameter `", $param, "`.")]
        pub fn $reader(obj: &Bound<'_, PyAny>) -> PyResult<$ty> {
            <$ty as Whole>::read(obj, $param)
        }
    };
    (@fn optional $reader:ident $param:literal $ty:ty) => {
        #[doc = concat!("The parameter `", $param, "` (None: not given).")]
        pub fn $reader(obj: &Bound<'_, PyAny>) -> PyResult<Option<$ty>> {
            if obj.is_none() {
                Ok(None)
            } else {
                <$ty as Whole>::read(obj, $param).map(Some)
            }
        }
    };
}

readers! {
    box_size("box_size") -> one usize;
    row("row") -> one usize;
    column("column") -> one usize;
    digit("digit") -> one u16;
    cnf_digit("digit") -> one usize;
    limit("limit") -> one u64;
    repeat("repeat") -> one usize;
    jobs("jobs") -> optional usize;
    threads("threads") -> optional usize;
    seed("seed") -> optional u64;
    max_iterations("max_iterations") -> optional u64;
    nv("nv") -> optional usize;
    puzzle_limit("limit") -> optional usize;
    study_jobs("jobs") -> one usize;
    study_seed("seed") -> one u64;
}

/// The parameter `values` (a grid's values).
pub fn values(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
    whole_list(obj, "values")
}
