//! [`Array`]: the elements of a generic array, a `Vec<Value>` that drops without recursion.

use std::ops::{Deref, DerefMut};

use super::Value;

/// The elements of a generic array: a `Vec<Value>` (it dereferences to one, so `push`, `len`,
/// `iter`, indexing and slicing work as on a `Vec`) whose drop does not recurse, so that a
/// value nested a million levels deep can be dropped on a small stack.
///
/// ```
/// use structio::value::{Array, Value};
/// let mut a = Array::from(vec![Value::from(1), Value::from("two")]);
/// a.push(Value::Null);
/// assert_eq!(a.len(), 3);
/// assert_eq!(a[1], "two");
/// let v: Vec<Value> = a.into_vec();
/// assert_eq!(v.len(), 3);
/// ```
#[derive(Clone, Default)]
pub struct Array(pub(crate) Vec<Value>);

impl Array {
    /// An empty array.
    pub fn new() -> Array {
        Array(Vec::new())
    }

    /// An empty array with room for `n` elements.
    pub fn with_capacity(n: usize) -> Array {
        Array(Vec::with_capacity(n))
    }

    /// The elements as a `Vec`.
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }
}

impl Deref for Array {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for Array {
    fn from(v: Vec<Value>) -> Array {
        Array(v)
    }
}

impl From<Array> for Vec<Value> {
    fn from(a: Array) -> Vec<Value> {
        a.into_vec()
    }
}

impl<T: Into<Value>> FromIterator<T> for Array {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Array {
        Array(iter.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> Extend<T> for Array {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(Into::into))
    }
}

impl IntoIterator for Array {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Value;
    type IntoIter = std::slice::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}
